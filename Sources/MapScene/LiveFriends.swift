import Foundation
import GeoCore
import LiveMap

extension Friend {
    /// A friend as the viewer sees them now: the store's person, their latest fix and the viewer's details.
    public init(_ visible: VisibleFriend) {
        self.init(id: visible.person.id.rawValue, name: visible.person.name, place: visible.fix.place ?? "",
                  coordinate: visible.fix.coordinate, lastSeen: visible.fix.takenAt, snapstreak: visible.details.snapstreak,
                  bestFriend: visible.details.bestFriend, color: visible.person.color, avatar: visible.person.avatar, liveUntil: visible.liveUntil,
                  pose: visible.pose)
    }
}

extension LiveMapService {
    /// The friends `viewer` sees at `now`, by the visibility rule, as the map draws them.
    public func friends(of viewer: PersonID, at now: Date) throws -> [Friend] {
        try visibleFriends(of: viewer, at: now).map(Friend.init)
    }

    /// The friends `viewer` sees at `now`, and the first instant after `now` at which the rule could show or hide one
    /// of their candidates with no write (a fix leaving its window), or a timer at which a hidden candidate would show
    /// with a current fix ends (`VisibilityRule.timersThatShow`); nil when only a write can change what they see.
    public func friendsUntil(of viewer: PersonID, at now: Date) throws -> (friends: [Friend], until: Date?) {
        let candidates = try store.candidates(of: viewer)
        // Such a timer ends the answer too: until then a view tells the viewer nothing of a hidden friend's fixes
        // (`LiveView.viewersToTell`), so neither the bytes nor the time of an answer can hint at them. A pose changes
        // with the clock too (an activity growing stale, a birthday's midnight), for a friend seen now.
        var clock = PoseClock(now: now)
        var friends: [Friend] = []
        var until: Date?
        func consider(_ time: Date?) {
            if let time, until.map({ time < $0 }) ?? true { until = time }
        }
        for candidate in candidates {
            VisibilityRule.timersThatShow(candidate.facts, after: now).forEach(consider)
            consider(VisibilityRule.nextChange(candidate.facts, after: now))
            guard let friend = Self.visible(candidate, clock: &clock) else { continue }
            friends.append(Friend(friend))
            consider(PoseRule.nextChange(fix: friend.fix, birthday: candidate.birthday, clock: &clock))
        }
        return (friends, until)
    }

    /// The stamp of what `viewer` sees, when the store is a current `LiveView` (`LiveView.answerStamp`); else nil.
    public func answerStamp(of viewer: PersonID) -> UInt64? {
        (store as? LiveView)?.answerStamp(of: viewer)
    }
}

/// Loads the Williamsburg fixture into a live store: the viewer and the fixture's friends, friendships with the
/// viewer both ways (with their Snapstreaks and best-friend marks), each friend's fix at its fixture time, and the
/// ghosted friend in Ghost Mode until turned off. Idempotent: running it twice changes nothing.
public enum DemoSeed {
    /// The accuracy given to the fixture's fixes, in metres.
    public static let fixtureAccuracy = 10.0

    /// The viewer's id in the store (the fixture's username).
    public static func viewerID(_ scene: Scene) throws -> PersonID {
        try PersonID(scene.viewer.username, field: "viewer.username")
    }

    /// Seeds a store that has no viewer yet; returns whether it seeded. A store the viewer is in is never seeded
    /// again, so a friend who unfriended, blocked or deleted their account stays so (a seed cut short is finished
    /// by `snapmap seed`).
    @discardableResult
    public static func seedIfNeeded(_ store: any LiveStore, scene: Scene, snapsFile: URL? = nil) throws -> Bool {
        let viewer = try viewerID(scene)
        guard try store.person(viewer) == nil else { return false }
        try seed(store, scene: scene, snapsFile: snapsFile)
        return true
    }

    /// Seeds the fixture's people and, from `snapsFile` when given and the store is new, the demo's public Snaps.
    public static func seed(_ store: any LiveStore, scene: Scene, snapsFile: URL? = nil) throws {
        let viewer = try viewerID(scene)
        let sharing = SharingSettings(ghost: .off, audience: .friends)
        let fresh = try store.addPerson(Person(id: viewer, name: scene.viewer.name, color: LiveMapService.palette[0]), settings: sharing)
        if fresh, let snapsFile { try store.addSnaps(SnapsFile.read(snapsFile)) }
        for friend in scene.friends + scene.ghosts {
            let id = try PersonID(friend.id, field: "friends.\(friend.id).id")
            let ghost = scene.ghosts.contains(friend)
            _ = try store.addPerson(Person(id: id, name: friend.name, color: friend.color, avatar: friend.avatar),
                                    settings: SharingSettings(ghost: ghost ? .untilTurnedOff : .off, audience: .friends))
            let details = FriendDetails(snapstreak: friend.snapstreak, bestFriend: friend.bestFriend)
            try store.addAsk(from: viewer, to: id, details: details)
            try store.addAsk(from: id, to: viewer, details: details)
            _ = try store.recordFix(LocationFix(coordinate: friend.coordinate, accuracyMeters: fixtureAccuracy, takenAt: friend.lastSeen,
                                                place: friend.place), of: id)
        }
    }
}
