/// A birthday a person set: a month and a day (no year), shown to their friends. Construction validates.
public struct Birthday: Hashable, Sendable, CustomStringConvertible {
    public static let monthRange = 1...12
    /// Days in each month, February with the 29th (a leap-day birthday is kept as set).
    static let daysInMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    public let month: Int
    public let day: Int

    public init(month: Int, day: Int) throws(LiveMapError) {
        guard Self.monthRange.contains(month) else {
            throw .invalid(field: "month", message: "must be in 1…12, got \(month)")
        }
        let days = Self.daysInMonth[month - 1]
        guard (1...days).contains(day) else {
            throw .invalid(field: "day", message: "must be in 1…\(days) for month \(month), got \(day)")
        }
        (self.month, self.day) = (month, day)
    }

    /// Parses `MM-DD` (as `description` writes it), naming `field` when the text is malformed.
    public init(parsing text: String, field: String = "birthday") throws(LiveMapError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { ("0"..."9").contains($0) } }), let month = Int(parts[0]), let day = Int(parts[1]) else {
            throw .invalid(field: field, message: "must be MM-DD, got \"\(text.prefix(16))\"")
        }
        // The body's field is named, with the month and day it must hold.
        guard Self.monthRange.contains(month), (1...Self.daysInMonth[month - 1]).contains(day) else {
            throw .invalid(field: field, message: "must be a month 1…12 and a day of it (02-29 allowed), got \"\(text.prefix(16))\"")
        }
        try self.init(month: month, day: day)
    }

    /// `MM-DD`.
    public var description: String {
        (month < 10 ? "0" : "") + String(month) + "-" + (day < 10 ? "0" : "") + String(day)
    }
}
