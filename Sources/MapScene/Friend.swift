import Foundation
import GeoCore
import LiveMap

/// A friend on the map, as the app's fixtures describe them. Ghosted friends never become a `Friend`.
public struct Friend: Hashable, Sendable, Codable {
    public let id: String
    public let name: String
    public let place: String
    public let coordinate: Coordinate
    public let lastSeen: Date
    public let snapstreak: Int
    public let bestFriend: Bool
    /// The avatar colour as `#RRGGBB`.
    public let color: String
    /// An avatar image path relative to the data directory, when the fixture names one.
    public let avatar: String?
    /// The end of the friend's Live Location share with the viewer, while it runs.
    public var liveUntil: Date? = nil
    /// The Actionmoji pose their pin shows.
    public var pose: Pose = .standing
}

/// One entry of `friends.json` as written, before validation.
struct FriendRecord: Decodable {
    static let maxMinutesAgo = 60 * 24 * 365
    static let maxSnapstreak = 100_000

    let id: String
    let name: String
    let place: String
    let lat: Double
    let lon: Double
    let lastSeenMinutesAgo: Int
    let snapstreak: Int
    let bestFriend: Bool
    let color: String
    let avatar: String?
    let ghostMode: Bool?
    /// The cartoon avatar's look.
    let look: AvatarLook?

    /// Validates the record; errors carry the field path under `prefix`.
    func validated(prefix: String, file: String, capturedAt: Date) throws(DataFileError) -> Friend {
        func fail(_ field: String, _ message: String) -> DataFileError {
            DataFileError(file: file, path: "\(prefix).\(field)", message: message)
        }
        guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw fail("id", "must be non-empty ASCII letters, digits, - or _")
        }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail("name", "must not be empty") }
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(lat: lat, lon: lon)
            try coordinate.checkProjectable()
        } catch {
            throw DataFileError(file: file, path: prefix, message: error.description)
        }
        guard (0...Self.maxMinutesAgo).contains(lastSeenMinutesAgo) else {
            throw fail("lastSeenMinutesAgo", "\(lastSeenMinutesAgo) is out of range: allowed 0 … \(Self.maxMinutesAgo)")
        }
        guard (0...Self.maxSnapstreak).contains(snapstreak) else {
            throw fail("snapstreak", "\(snapstreak) is out of range: allowed 0 … \(Self.maxSnapstreak)")
        }
        guard HexColor.isValid(color) else { throw fail("color", "must be #RRGGBB, got \"\(color)\"") }
        return Friend(id: id, name: name, place: place, coordinate: coordinate,
                      lastSeen: capturedAt.addingTimeInterval(-Double(lastSeenMinutesAgo) * 60),
                      snapstreak: snapstreak, bestFriend: bestFriend, color: color, avatar: avatar)
    }
}

/// `#RRGGBB` colour text.
enum HexColor {
    static func isValid(_ text: String) -> Bool {
        text.count == 7 && text.first == "#" && text.dropFirst().allSatisfy(\.isHexDigit)
    }
}
