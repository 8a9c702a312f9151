import Foundation
import GeoCore

/// A friend as the layout sees them. Ghosted friends never become subjects.
public struct PinSubject: Hashable, Sendable {
    public let id: String
    public let name: String
    public let coordinate: Coordinate
    public let lastSeen: Date
    public let snapstreak: Int
    public let bestFriend: Bool
    /// The Actionmoji pose's name ("standing" when none), which the layout passes on for a phone to draw.
    public let pose: String

    public init(id: String, name: String, coordinate: Coordinate, lastSeen: Date, snapstreak: Int, bestFriend: Bool, pose: String = "standing") {
        self.pose = pose
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.lastSeen = lastSeen
        self.snapstreak = snapstreak
        self.bestFriend = bestFriend
    }

    /// The first word of the name ("Jordan"), spaces before it skipped; the project's one rule for a first name.
    public var firstName: String {
        // ASCII names, nearly all, by their bytes (each byte a character there); others by characters.
        let bytes = name.utf8
        if bytes.allSatisfy({ $0 < 0x80 }) {
            guard let from = bytes.firstIndex(where: { $0 != 0x20 }) else { return name }
            return String(Substring(bytes[from..<(bytes[from...].firstIndex(of: 0x20) ?? bytes.endIndex)]))
        }
        guard let from = name.firstIndex(where: { $0 != " " }) else { return name }
        let rest = name[from...]
        return String(rest[..<(rest.firstIndex(of: " ") ?? rest.endIndex)])
    }
}

/// "now" under a minute, then "2m", "3h", "4d": the time since a friend was last seen, from a `now` the
/// caller passes (rendering never reads the clock). A time after `now` reads "now".
public enum LastSeenText {
    public static func text(lastSeen: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(lastSeen)
        let minutes = Int((seconds / 60).rounded(.down))
        switch minutes {
        case ..<1: return "now"
        case ..<60: return String(minutes) + "m"
        case ..<(24 * 60): return String(minutes / 60) + "h"
        default: return String(minutes / (24 * 60)) + "d"
        }
    }
}

/// "Live · until 9:41 PM": a Live Location share's end on New York's clock (where the map is), for the card.
public enum LiveUntilText {
    public static let timeZone = TimeZone(identifier: "America/New_York")!

    public static func text(until: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "h:mm a"
        return "Live · until " + formatter.string(from: until)
    }
}

/// MapKit-like display priority: the selected friend first, then best friends by Snapstreak (longest first),
/// then everyone else by most recently seen; ties broken by id so the order is stable.
public enum PinPriority {
    public static func sorted(_ subjects: [PinSubject], selected: String?) -> [PinSubject] {
        // One pass splits the subjects by rank (the selected friend, then best friends; each best friend first); within
        // a rank, the Snapstreak (best friends') and the time last seen are each an integer that orders as the rule
        // does, then the id and the place in `subjects` break ties: the order is total, and subjects (with their
        // strings) are moved only once, into it.
        struct Key {
            let streak: UInt64, seen: UInt64, index: Int
        }
        var ranks = [[Key]](repeating: [], count: 4)
        for index in subjects.indices {
            let subject = subjects[index]
            ranks[(subject.id == selected ? 0 : 2) + (subject.bestFriend ? 0 : 1)]
                .append(Key(streak: subject.bestFriend ? descending(subject.snapstreak) : 0,
                            seen: descending(subject.lastSeen.timeIntervalSinceReferenceDate), index: index))
        }
        var ordered: [PinSubject] = []
        ordered.reserveCapacity(subjects.count)
        for var keys in ranks {
            keys.sort { x, y in
                if x.streak != y.streak { return x.streak < y.streak }
                if x.seen != y.seen { return x.seen < y.seen }
                let (a, b) = (subjects[x.index].id, subjects[y.index].id)
                return a != b ? a < b : x.index < y.index
            }
            for key in keys { ordered.append(subjects[key.index]) }
        }
        return ordered
    }

    /// An integer whose order is the reverse of `value`'s.
    private static func descending(_ value: Int) -> UInt64 { ~(UInt64(bitPattern: Int64(value)) ^ (1 << 63)) }

    /// An integer whose order is the reverse of `value`'s (a time, never NaN; zeros of either sign alike).
    private static func descending(_ value: Double) -> UInt64 {
        let bits = (value == 0 ? 0.0 : value).bitPattern
        return ~(bits >> 63 == 0 ? bits | (1 << 63) : ~bits)
    }
}
