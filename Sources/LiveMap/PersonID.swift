import GeoCore

/// A person's id: 1 to 32 of `a-z`, `0-9`, `_` and `-`. Construction validates.
public struct PersonID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public static let maxLength = 32
    public let rawValue: String

    /// Validates `text`; the error names `field`, in a body or file unless `place` says a parameter (a path's id).
    public init(_ text: String, field: String = "id", in place: BadField.Place = .document) throws(LiveMapError) {
        guard (1...Self.maxLength).contains(text.utf8.count), text.utf8.allSatisfy(Self.isAllowed) else {
            throw .invalid(field: field, message: "must be 1 to \(Self.maxLength) characters of a-z, 0-9, _ and -; got \"\(text.prefix(40))\"", in: place)
        }
        rawValue = text
    }

    /// For ids read back from a store that validated them when they were written.
    public init(trusted text: String) {
        rawValue = text
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: PersonID, rhs: PersonID) -> Bool { lhs.rawValue < rhs.rawValue }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
