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

    public init(id: String, name: String, coordinate: Coordinate, lastSeen: Date, snapstreak: Int, bestFriend: Bool) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.lastSeen = lastSeen
        self.snapstreak = snapstreak
        self.bestFriend = bestFriend
    }

    /// The first word of the name ("Jordan"), spaces before it skipped; the project's one rule for a first name.
    public var firstName: String { String(name.split(separator: " ").first ?? Substring(name)) }
}

/// "now" under a minute, then "2m", "3h", "4d": the time since a friend was last seen, from a `now` the
/// caller passes (rendering never reads the clock). A time after `now` reads "now".
public enum LastSeenText {
    public static func text(lastSeen: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(lastSeen)
        let minutes = Int((seconds / 60).rounded(.down))
        switch minutes {
        case ..<1: return "now"
        case ..<60: return "\(minutes)m"
        case ..<(24 * 60): return "\(minutes / 60)h"
        default: return "\(minutes / (24 * 60))d"
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
        // Sort indices by plain keys: moving whole subjects (with their strings) through a sort costs more.
        let keys = subjects.map { subject in
            (selected: subject.id == selected, best: subject.bestFriend, streak: subject.bestFriend ? subject.snapstreak : 0,
             seen: subject.lastSeen.timeIntervalSinceReferenceDate)
        }
        let order = subjects.indices.sorted { a, b in
            let (x, y) = (keys[a], keys[b])
            if x.selected != y.selected { return x.selected }
            if x.best != y.best { return x.best }
            if x.streak != y.streak { return x.streak > y.streak }
            if x.seen != y.seen { return x.seen > y.seen }
            return subjects[a].id < subjects[b].id
        }
        return order.map { subjects[$0] }
    }
}
