import Foundation

/// Ghost Mode: off, on with a timer (3 or 24 hours) that ends by itself, or on until turned off.
public enum GhostMode: Hashable, Sendable {
    case off
    /// On until `until`; `hours` is the timer chosen (3 or 24).
    case timed(hours: Int, until: Date)
    case untilTurnedOff

    /// The timers a person may choose.
    public static let timerHours = [3, 24]

    /// Whether Ghost Mode hides the person at `now`.
    public func isOn(at now: Date) -> Bool {
        switch self {
        case .off: return false
        case .timed(_, let until): return now < until
        case .untilTurnedOff: return true
        }
    }

    /// The API's name of the mode in force at `now` ("off" once a timer has ended): off, 3h, 24h, untilOff.
    public func name(at now: Date) -> String {
        switch self {
        case .off: return "off"
        case .timed(let hours, let until): return now < until ? "\(hours)h" : "off"
        case .untilTurnedOff: return "untilOff"
        }
    }

    /// Parses the API's name at `now`: timers start now.
    public static func parse(_ name: String, now: Date) throws(LiveMapError) -> GhostMode {
        switch name {
        case "off": return .off
        case "untilOff": return .untilTurnedOff
        case "3h", "24h":
            let hours = name == "3h" ? 3 : 24
            return .timed(hours: hours, until: now.addingTimeInterval(Double(hours) * 3600))
        default:
            throw .invalid(field: "ghost", message: "must be one of off, 3h, 24h, untilOff; got \"\(name.prefix(32))\"")
        }
    }
}

/// Who a person shares their location with: all friends, all but some, or only some.
public enum Audience: Hashable, Sendable {
    case friends
    case friendsExcept(Set<PersonID>)
    case only(Set<PersonID>)

    /// The most ids an audience list may hold.
    public static let maxIDs = 500
    public static let modes = ["friends", "friendsExcept", "only"]

    /// Whether `viewer` is in the audience (friendship is checked by the rule, not here).
    public func includes(_ viewer: PersonID) -> Bool {
        switch self {
        case .friends: return true
        case .friendsExcept(let excluded): return !excluded.contains(viewer)
        case .only(let included): return included.contains(viewer)
        }
    }

    public var mode: String {
        switch self {
        case .friends: return "friends"
        case .friendsExcept: return "friendsExcept"
        case .only: return "only"
        }
    }

    public var ids: [PersonID] {
        switch self {
        case .friends: return []
        case .friendsExcept(let ids), .only(let ids): return ids.sorted()
        }
    }

    /// Builds an audience from its mode name and id list, validating both.
    public static func parse(mode: String, ids: [String]) throws(LiveMapError) -> Audience {
        guard ids.count <= maxIDs else { throw .invalid(field: "audience.ids", message: "at most \(maxIDs) ids") }
        var set = Set<PersonID>()
        for (index, id) in ids.enumerated() { set.insert(try PersonID(id, field: "audience.ids[\(index)]")) }
        switch mode {
        case "friends":
            guard set.isEmpty else { throw .invalid(field: "audience.ids", message: "must be empty for mode friends") }
            return .friends
        case "friendsExcept": return .friendsExcept(set)
        case "only": return .only(set)
        default: throw .invalid(field: "audience.mode", message: "must be one of \(modes.joined(separator: ", ")); got \"\(mode.prefix(32))\"")
        }
    }
}

/// A person's sharing settings. New people start in Ghost Mode until they turn it off, as Snap Map does.
public struct SharingSettings: Hashable, Sendable {
    public var ghost: GhostMode
    public var audience: Audience

    public init(ghost: GhostMode, audience: Audience) {
        self.ghost = ghost
        self.audience = audience
    }

    public static let newPerson = SharingSettings(ghost: .untilTurnedOff, audience: .friends)
}
