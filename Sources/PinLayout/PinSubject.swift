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

    /// The first word of the name ("Jordan").
    public var firstName: String { String(name[..<(name.firstIndex(of: " ") ?? name.endIndex)]) }
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

/// MapKit-like display priority: the selected friend first, then best friends by Snapstreak (longest first),
/// then everyone else by most recently seen; ties broken by id so the order is stable.
public enum PinPriority {
    public static func sorted(_ subjects: [PinSubject], selected: String?) -> [PinSubject] {
        subjects.sorted { a, b in
            if (a.id == selected) != (b.id == selected) { return a.id == selected }
            if a.bestFriend != b.bestFriend { return a.bestFriend }
            if a.bestFriend && a.snapstreak != b.snapstreak { return a.snapstreak > b.snapstreak }
            if a.lastSeen != b.lastSeen { return a.lastSeen > b.lastSeen }
            return a.id < b.id
        }
    }
}
