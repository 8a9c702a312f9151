import Foundation

/// The one reading of ISO 8601 times in the project (command-line clocks, request bodies, fixtures, Snaps files):
/// `YYYY-MM-DDTHH:MM:SS`, an optional fraction of 1–9 digits, then `Z` or `±HH:MM`; upper-case `T` and `Z`, nothing
/// before or after, and every field in its range (month 1–12, a day of that month, hour 0–23, minute and second 0–59,
/// an offset under 24 hours). Anything else is nil.
public enum ISO8601Time {
    /// A time as the messages that refuse one show it.
    public static let example = "2026-11-29T18:00:00Z"

    /// The time `text` names, or nil when it breaks a rule above.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count <= 40, let fraction = fractionDigits(bytes) else { return nil }
        // What passed the rules is converted by Foundation, so a time reads as the same `Date` wherever it is read.
        let formatter = ISO8601DateFormatter()
        if fraction > 0 { formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds] }
        return formatter.date(from: text)
    }

    /// The number of fraction digits of a time that keeps every rule, or nil.
    private static func fractionDigits(_ bytes: [UInt8]) -> Int? {
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, range.allSatisfy({ (48...57).contains(bytes[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 48) }
        }
        func byte(_ index: Int, is character: Character) -> Bool { index < bytes.count && bytes[index] == character.asciiValue }
        guard let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"), let day = number(8..<10),
              byte(10, is: "T"), let hour = number(11..<13), byte(13, is: ":"), let minute = number(14..<16), byte(16, is: ":"),
              let second = number(17..<19), year >= 1, (1...12).contains(month), (1...days(in: month, of: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var fraction = 0
        if byte(index, is: ".") {
            while index + 1 + fraction < bytes.count, (48...57).contains(bytes[index + 1 + fraction]) { fraction += 1 }
            guard (1...9).contains(fraction) else { return nil }
            index += 1 + fraction
        }
        if byte(index, is: "Z") { return index + 1 == bytes.count ? fraction : nil }
        guard byte(index, is: "+") || byte(index, is: "-"), let offsetHours = number((index + 1)..<(index + 3)), byte(index + 3, is: ":"),
              let offsetMinutes = number((index + 4)..<(index + 6)), index + 6 == bytes.count, offsetHours < 24, offsetMinutes < 60 else { return nil }
        return fraction
    }

    private static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
