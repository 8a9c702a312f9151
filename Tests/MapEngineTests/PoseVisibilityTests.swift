import Foundation
import LiveMap
import MapScene
import SQLiteKit
import Testing

/// A pose is made only of what the viewer may see of a friend: a hidden friend's activity, speed and birthday change
/// nothing the viewer's map is made from (the friends, their poses, the instant the answer ends).
@Suite("Actionmoji poses on a viewer's map")
struct PoseVisibilityTests {
    /// 2026-07-04 15:00 in New York.
    static let now = ISO8601DateFormatter().date(from: "2026-07-04T19:00:00Z")!

    /// Vic sees Fay; Gus (ghosted), Hal (audience without Vic) and Ike (blocks Vic) are hidden from him. With `moving`,
    /// the hidden three drive, fly and have their birthday today.
    static func world(moving: Bool) throws -> LiveMapService {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("poses-\(UUID().uuidString).db").path
        let live = LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false))
        for id in ["vic", "fay", "gus", "hal", "ike", "joy"] { _ = try live.addPerson(id: id, name: id.capitalized + " Test") }
        let vic = try PersonID("vic")
        for id in ["fay", "gus", "hal", "ike"] {
            _ = try live.requestFriend(vic, id)
            _ = try live.requestFriend(PersonID(id), "vic")
            try live.setSharing(PersonID(id), ghost: "off", audience: nil, now: now)
        }
        _ = try live.requestFriend(try PersonID("hal"), "joy")
        _ = try live.requestFriend(try PersonID("joy"), "hal")
        try live.setSharing(try PersonID("gus"), ghost: "untilOff", audience: nil, now: now)
        try live.setSharing(try PersonID("hal"), ghost: nil, audience: (mode: "only", ids: ["joy"]), now: now)
        try live.block(try PersonID("ike"), "vic")
        for (index, id) in ["fay", "gus", "hal", "ike"].enumerated() {
            let move: (Activity?, Double?) = moving && id != "fay" ? ([.automotive, .flying, nil][index - 1], [12, 250, 30][index - 1]) : (nil, nil)
            let fix = try LocationFix(lat: 40.7185 + Double(index) * 0.001, lon: -73.9627, accuracyMeters: 8, takenAt: now.addingTimeInterval(-60),
                                      activity: move.0, speedMetersPerSecond: move.1)
            try live.updateLocation(try PersonID(id), fix: fix, now: now)
            if moving && id != "fay" { try live.setBirthday(try PersonID(id), try Birthday(month: 7, day: 4)) }
        }
        return live
    }

    @Test func aHiddenFriendsActivityAndBirthdayChangeNothingTheViewerGets() throws {
        let vic = try PersonID("vic")
        let (still, moving) = (try Self.world(moving: false), try Self.world(moving: true))
        for at in [Self.now, Self.now.addingTimeInterval(600), Self.now.addingTimeInterval(8 * 3600)] {
            let (a, b) = (try still.friendsUntil(of: vic, at: at), try moving.friendsUntil(of: vic, at: at))
            #expect(a.friends == b.friends && a.until == b.until, "at \(at)")
            #expect(a.friends.map(\.id) == ["fay"])
        }
        // Each hidden friend is seen by someone who may: their poses are real, not dropped at the source.
        let joy = try moving.friendsUntil(of: try PersonID("joy"), at: Self.now).friends
        #expect(joy.map(\.pose) == [.flying])
    }

    @Test func aVisibleFriendsPoseFollowsTheirFixAndEndsTheAnswerWhenItWouldChange() throws {
        let live = try Self.world(moving: false)
        let (vic, fay) = (try PersonID("vic"), try PersonID("fay"))
        #expect(try live.friendsUntil(of: vic, at: Self.now).friends.first?.pose == .standing)
        let taken = Self.now.addingTimeInterval(-30)
        try live.updateLocation(fay, fix: LocationFix(lat: 40.7185, lon: -73.9627, accuracyMeters: 8, takenAt: taken, activity: .automotive,
                                                      speedMetersPerSecond: 13), now: Self.now)
        let driving = try live.friendsUntil(of: vic, at: Self.now)
        #expect(driving.friends.first?.pose == .driving)
        #expect(driving.until == taken.addingTimeInterval(PoseRule.freshFor + 0.001), "the answer ends when the activity grows stale")
        let later = try #require(driving.until)
        #expect(try live.friendsUntil(of: vic, at: later).friends.first?.pose == .standing)
        try live.setBirthday(fay, try Birthday(month: 7, day: 4))
        #expect(try live.friendsUntil(of: vic, at: later).friends.first?.pose == .birthday)
    }
}
