import Foundation

/// `/healthz`: whether the server can serve, and its version.
public struct Health: Codable, Sendable, Equatable {
    public let status: String
    public let reason: String?
    public let version: String?
}

/// A location fix as a phone sends it (`PUT /v1/me/location`).
public struct Location: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double
    public var accuracyMeters: Double
    /// When it was taken (nil: the server's now).
    public var at: Date?
    /// The place's name (the text rule), nil or "" for none.
    public var place: String?
    /// What the motion sensors say (nil: nothing); friends' maps draw the pose it picks.
    public var activity: Activity?
    /// The phone's speed in m/s, 0 … 400 (nil: unknown).
    public var speedMetersPerSecond: Double?

    public init(lat: Double, lon: Double, accuracyMeters: Double, at: Date? = nil, place: String? = nil,
                activity: Activity? = nil, speedMetersPerSecond: Double? = nil) {
        (self.lat, self.lon, self.accuracyMeters, self.at, self.place) = (lat, lon, accuracyMeters, at, place)
        (self.activity, self.speedMetersPerSecond) = (activity, speedMetersPerSecond)
    }
}

/// What a phone's motion sensors say its owner is doing.
public enum Activity: String, Codable, Sendable, CaseIterable {
    case still, walking, running, cycling, automotive, flying
}

/// `GET`/`PUT /v1/me/birthday`: `MM-DD`, or nil for none.
struct BirthdayBody: Codable, Sendable {
    let birthday: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(birthday, forKey: .birthday)
    }
}

/// A public Snap, which feeds the glow (`POST /v1/me/snaps`).
public struct Snap: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double
    public var at: Date?

    public init(lat: Double, lon: Double, at: Date? = nil) {
        (self.lat, self.lon, self.at) = (lat, lon, at)
    }
}

/// Ghost Mode: off, on for 3 or 24 hours, or until turned off.
public enum GhostMode: String, Codable, Sendable {
    case off
    case threeHours = "3h"
    case day = "24h"
    case untilOff
}

/// Who sees the person: all friends, all but some, or only some.
public struct Audience: Codable, Sendable, Equatable {
    public enum Mode: String, Codable, Sendable { case friends, friendsExcept, only }
    public var mode: Mode
    public var ids: [String]

    public init(mode: Mode, ids: [String] = []) {
        (self.mode, self.ids) = (mode, ids)
    }
}

/// The sharing settings (`GET /v1/me/sharing`); `ghostUntil` is when a timed Ghost Mode ends.
public struct Sharing: Codable, Sendable, Equatable {
    public let ghost: GhostMode
    public let ghostUntil: Date?
    public let audience: Audience
}

/// A change of sharing: either or both.
public struct SharingChange: Codable, Sendable {
    public var ghost: GhostMode?
    public var audience: Audience?

    public init(ghost: GhostMode? = nil, audience: Audience? = nil) {
        (self.ghost, self.audience) = (ghost, audience)
    }
}

/// How two people stand: friends, or a request one way.
public enum FriendState: String, Codable, Sendable {
    case friends, requested, incoming
}

/// An entry of `GET /v1/me/friends` (never a location).
public struct FriendEntry: Codable, Sendable, Equatable {
    public let id: String
    public let name: String
    public let status: FriendState
    /// `MM-DD`, for a friend who set one.
    public let birthday: String?
}

/// What asking someone to be friends did (`POST /v1/me/friends/{id}`).
public struct FriendStatus: Codable, Sendable, Equatable {
    public let id: String
    public let status: FriendState
}

struct FriendList: Codable, Sendable {
    let friends: [FriendEntry]
}

/// A friend on the map, as events tell it.
public struct MapFriend: Codable, Sendable, Equatable {
    public let id: String
    public let name: String
    public let lat: Double
    public let lon: Double
    public let at: Date
}

/// One event of `/v1/me/events`.
public enum FriendEvent: Sendable, Equatable {
    /// Every friend on the map, when the stream opens and again after each reconnection.
    case ready([MapFriend])
    case appear(MapFriend)
    case move(MapFriend)
    case disappear(id: String)
    /// The friend shares Live Location with the signed-in person until `until` (after their `appear`, or in a `ready`).
    case liveStarted(id: String, until: Date)
    /// Their share stopped, was paused or ended (before a `disappear` when it was all that showed them).
    case liveEnded(id: String)
}

/// A Live Location share: `from` shows their location to friend `to` until `until`, unless paused.
public struct LiveShare: Codable, Sendable, Equatable {
    public let from: String
    public let to: String
    public let startedAt: Date
    public let until: Date
    public let paused: Bool
}

/// How long a Live Location share runs.
public enum LiveShareDuration: String, Codable, Sendable {
    case fifteenMinutes = "15m", oneHour = "1h", eightHours = "8h"
}

struct LiveShareList: Codable, Sendable {
    let shares: [LiveShare]
}

struct LiveShareStart: Codable, Sendable {
    let friend: String
    let duration: LiveShareDuration
}

struct LiveSharePause: Codable, Sendable {
    let paused: Bool
}

/// Whether the person keeps Footsteps, and how many places they hold.
public struct FootstepsState: Codable, Sendable, Equatable {
    public let on: Bool
    public let places: Int
}

/// How much of each neighbourhood the person's Footsteps have explored, most explored first.
public struct Explored: Codable, Sendable, Equatable {
    /// One neighbourhood: its streets' ground length, the part within `radiusMeters` of a kept place, their ratio,
    /// and the sentence to show ("You have explored 38% of Williamsburg").
    public struct Neighbourhood: Codable, Sendable, Equatable {
        public let neighbourhood: String
        public let exploredMeters: Double
        public let streetMeters: Double
        public let share: Double
        public let text: String
    }

    public let radiusMeters: Double
    public let cutMeters: Double
    public let neighbourhoods: [Neighbourhood]
}

struct FootstepsChange: Codable, Sendable {
    let on: Bool
}
