import Foundation
import GeoCore
import LiveMap
@testable import MapServer
import Testing

/// A friend hidden from the viewer tells them nothing, not even through time: their moves and writes leave the
/// viewer's stamp where it was, so the viewer's next layout is the kept answer (as fast as before, the same bytes).
/// And no write is missed because of it: after random writes by both processes at random clock times, every kept
/// answer is byte for byte the store's.
@Suite("Hidden friends leave the viewer's kept answer alone")
struct HiddenFriendStampTests {
    typealias World = LayoutAnswersTests.World

    @Test(arguments: ["ghost", "timed ghost", "audience", "blocked", "one-sided"])
    func aHiddenFriendsMovesMoveNoStamp(hiddenBy: String) throws {
        let world = try World()
        let t0 = LayoutAnswersTests.t0
        for index in 0..<3 { try world.friend(index, by: world.here, at: t0) }
        let hidden = PersonID(trusted: "f2")
        switch hiddenBy {
        case "ghost": _ = try world.here.setSharing(hidden, ghost: "untilOff", audience: nil, now: t0)
        case "timed ghost": _ = try world.here.setSharing(hidden, ghost: "3h", audience: nil, now: t0)
        case "audience": _ = try world.here.setSharing(hidden, ghost: nil, audience: ("friendsExcept", ["viewer"]), now: t0)
        case "blocked": try world.here.block(hidden, "viewer")
        default: try world.here.removeFriend(world.viewer, "f2")
        }
        world.compare("hidden by \(hiddenBy)")
        world.requireKept("hidden by \(hiddenBy)")
        for (step, writer) in [world.here, world.elsewhere, world.here].enumerated() {
            let stamp = world.here.answerStamp(of: world.viewer)
            world.clock.set(t0.addingTimeInterval(Double(step + 1)))
            try world.move(2, by: writer, at: world.clock.now, step: step + 1)
            try world.settle(writer)
            #expect(world.here.answerStamp(of: world.viewer) == stamp, "hidden by \(hiddenBy): a move moved the viewer's stamp")
            world.requireKept("hidden by \(hiddenBy), move \(step)")
            world.compare("hidden by \(hiddenBy), move \(step)")
        }
        // A visible friend's move does reach the viewer.
        let stamp = world.here.answerStamp(of: world.viewer)
        try world.move(1, by: world.here, at: world.clock.now, step: 9)
        #expect(world.here.answerStamp(of: world.viewer) != stamp, "a visible friend's move left the stamp")
    }

    /// A hidden friend's Ghost Mode changes (a timer set hours ahead, or none) are no news to the viewer either: they
    /// once made the viewer's next answer slower (2.0 ms against 0.5), which told them the friend had touched it.
    @Test(arguments: [("friends", "24h", "untilOff"), ("friendsExcept", "24h", "untilOff"), ("friendsExcept", "off", "3h")])
    func aHiddenFriendsGhostChangesMoveNoStamp(audience: String, first: String, second: String) throws {
        let world = try World()
        let t0 = LayoutAnswersTests.t0
        for index in 0..<3 { try world.friend(index, by: world.here, at: t0) }
        let hidden = PersonID(trusted: "f2")
        _ = try world.here.setSharing(hidden, ghost: first, audience: (audience, audience == "friends" ? [] : ["viewer"]), now: t0)
        world.compare("f2 hidden")
        world.requireKept("f2 hidden")
        let stamp = world.here.answerStamp(of: world.viewer)
        for (writer, ghost) in [(world.here, second), (world.elsewhere, first), (world.elsewhere, second)] {
            _ = try writer.setSharing(hidden, ghost: ghost, audience: nil, now: t0)
            try world.settle(writer)
            #expect(world.here.answerStamp(of: world.viewer) == stamp, "ghost \(ghost) with audience \(audience) moved the viewer's stamp")
            world.requireKept("ghost \(ghost)")
            world.compare("ghost \(ghost)")
        }
    }

    /// A Ghost timer that ends while its friend stays hidden (their audience leaves the viewer out) does not end the
    /// viewer's kept answer (its instant once showed as a slower answer); one that shows its friend within the answer's
    /// life (set by an operator's clock put back) does, and the next answer shows the friend.
    @Test func onlyATimerThatShowsAFriendEndsAKeptAnswer() throws {
        let world = try World()
        let t0 = LayoutAnswersTests.t0
        for index in 0..<4 { try world.friend(index, by: world.here, at: t0) }
        // Both timers end 10 s after t0, inside t0's minute (t0 is 40 s past a minute).
        let setAt = t0.addingTimeInterval(-3 * 3600 + 10)
        _ = try world.here.setSharing(PersonID(trusted: "f2"), ghost: "3h", audience: ("friendsExcept", ["viewer"]), now: setAt)
        world.compare("f2's timer running")
        world.requireKept("f2's timer running")
        world.clock.set(t0.addingTimeInterval(15))
        world.requireKept("f2's timer ended, f2 still hidden")
        world.compare("f2's timer ended, f2 still hidden")
        _ = try world.here.setSharing(PersonID(trusted: "f3"), ghost: "untilOff", audience: nil, now: t0)
        world.clock.set(t0)
        world.compare("f3 ghosted")
        _ = try world.elsewhere.setSharing(PersonID(trusted: "f3"), ghost: "3h", audience: nil, now: setAt)
        try world.settle(world.elsewhere)
        let hidden = world.compare("f3's timer set back")
        world.clock.set(t0.addingTimeInterval(15))
        #expect(world.compare("f3's timer ended") != hidden, "f3 showed at the end of the timer")
    }

    /// Seeded random writes (moves, Ghost Mode, audiences, live shares, blocks, asks) by this process and another,
    /// at a clock that jumps across timers; after each, the kept answer is the store's.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomWritesNeverLeaveAStaleKeptAnswer(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let world = try World()
        let t0 = LayoutAnswersTests.t0
        for index in 0..<4 { try world.friend(index, by: world.here, at: t0) }
        for step in 0..<60 {
            let writer = Bool.random(using: &random) ? world.here : world.elsewhere
            let index = Int.random(in: 0..<4, using: &random)
            let friend = PersonID(trusted: "f\(index)")
            let now = world.clock.now
            let what: String
            switch Int.random(in: 0..<9, using: &random) {
            case 0, 1:
                what = "f\(index) moves"
                try world.move(index, by: writer, at: now, step: step)
            case 2:
                let ghost = ["off", "3h", "24h", "untilOff"].randomElement(using: &random)!
                what = "f\(index) ghost \(ghost)"
                _ = try writer.setSharing(friend, ghost: ghost, audience: nil, now: now)
            case 3:
                let excludes = Bool.random(using: &random)
                what = "f\(index) audience excludes: \(excludes)"
                _ = try writer.setSharing(friend, ghost: nil, audience: excludes ? ("friendsExcept", ["viewer"]) : ("friends", []), now: now)
            case 4:
                what = "f\(index) shares live"
                _ = try? writer.startLiveShare(friend, with: "viewer", duration: "15m", now: now)
            case 5:
                what = "f\(index) pauses or stops live"
                if Bool.random(using: &random) { _ = try? writer.pauseLiveShare(friend, with: "viewer", paused: Bool.random(using: &random), now: now) } else { try? writer.stopLiveShare(friend, with: "viewer") }
            case 6:
                what = "f\(index) blocks or unblocks"
                if Bool.random(using: &random) { try writer.block(friend, "viewer") } else { try? writer.unblock(friend, "viewer") }
            case 7:
                what = "f\(index) unfriends or asks again"
                if Bool.random(using: &random) { try? writer.removeFriend(friend, "viewer") } else {
                    _ = try? writer.requestFriend(friend, "viewer")
                    _ = try? writer.requestFriend(world.viewer, "f\(index)")
                }
            default:
                let jump = ([1, 61, 900, 10_830] as [Double]).randomElement(using: &random)!
                what = "the clock moves \(jump) s"
                world.clock.set(now.addingTimeInterval(jump))
            }
            try world.settle(writer)
            world.compare("seed \(seed), step \(step): \(what)")
        }
    }
}
