import Foundation
import GeoCore
import Testing
@testable import LiveMap

/// The part of the conformance suite about writes that raced a block, an unfriending or a deletion (run by
/// `StoreConformance.run` on every store): the service reads how two people stand (or that the caller is signed in)
/// before it writes an ask, a share or a Snap, and another request (on this server or another replica) can block,
/// unfriend or delete an account in between, so the store's write itself must keep nothing that those would have removed.
extension StoreConformance {
    static func racedWrites(_ store: any LiveStore) throws {
        try asksNeverCrossABlock(store)
        try sharesOnlyBetweenFriends(store)
        try snapsDoNotOutliveTheirPoster(store)
    }

    /// An ask across a block, either way, is not kept. An attacker raced friend requests against the other person's
    /// block of them: 4 of 12 tries left the asker listing the blocker as "requested" (a blocker must look like
    /// nobody) and the blocker listing an incoming request from the person they had just blocked.
    static func asksNeverCrossABlock(_ store: any LiveStore) throws {
        let (jon, kay) = (try PersonID("jon"), try PersonID("kay"))
        for id in [jon, kay] { _ = try store.addPerson(person(id.rawValue), settings: .newPerson) }
        try store.addBlock(by: kay, on: jon)
        try store.addAsk(from: jon, to: kay, details: FriendDetails())
        #expect(try !store.asks(from: jon, to: kay), "an ask that read the standing before the block keeps nothing")
        #expect(try store.relations(of: jon).isEmpty && store.relations(of: kay).isEmpty && store.related(to: kay).isEmpty)
        #expect(try store.candidate(viewer: jon, person: kay)?.facts.viewerAsked != true && store.viewers(of: kay).isEmpty)
        try store.addAsk(from: kay, to: jon, details: FriendDetails())
        #expect(try !store.asks(from: kay, to: jon) && store.relations(of: jon).isEmpty, "nor the blocker's own")
        #expect(try store.removeBlock(by: kay, on: jon))
        try store.addAsk(from: jon, to: kay, details: FriendDetails())
        #expect(try store.relations(of: kay).map(\.status) == [.incoming], "once the block is lifted an ask is kept")
        try store.removeAsks(between: jon, and: kay)

        // An ask that read the standing before the other's account was deleted, written after: nothing is kept (on
        // SQLite it was an internal error, 500; on Redis Cluster it left keys naming the deleted id), and whoever
        // takes the id next starts with no request from anyone.
        #expect(try store.removePerson(kay))
        try store.addAsk(from: jon, to: kay, details: FriendDetails())
        #expect(try store.relations(of: jon).isEmpty && store.related(to: jon).isEmpty)
        #expect(try store.addPerson(person(kay.rawValue), settings: .newPerson))
        #expect(try store.relations(of: kay).isEmpty && store.related(to: kay).isEmpty, "a new person of that id has no request")
    }

    /// A share is kept only while its two people are mutual friends and neither blocks the other. The service checks
    /// the friendship before it writes a share (a start, a pause, a resume), but a block or an unfriending can land
    /// between that read and the write (an attacker raced pauses against a block: 8 of 20 tries left the sharer
    /// listing a share to the person who had just blocked them, to come back if they were friends again), so the
    /// store's write itself keeps nothing for a pair who are not friends.
    static func sharesOnlyBetweenFriends(_ store: any LiveStore) throws {
        let (gil, hal) = (try PersonID("gil"), try PersonID("hal"))
        for id in [gil, hal] { _ = try store.addPerson(person(id.rawValue), settings: .newPerson) }
        func befriend(_ a: PersonID, _ b: PersonID) throws { for (x, y) in [(a, b), (b, a)] { try store.addAsk(from: x, to: y, details: FriendDetails()) } }
        func nothingBetween(_ a: PersonID, _ b: PersonID) throws -> Bool {
            try store.liveShares(of: a).isEmpty && store.liveShares(of: b).isEmpty
                && store.candidate(viewer: b, person: a)?.facts.live == nil && store.viewers(of: a).allSatisfy { $0.facts.live == nil }
        }
        let share = LiveShare(from: gil, to: hal, startedAt: t0, until: t0.addingTimeInterval(3600), paused: false)
        try befriend(gil, hal)
        try store.setLiveShare(share)
        #expect(try store.liveShares(of: hal) == [share], "between friends a share is kept")

        try store.addBlock(by: hal, on: gil)
        try store.setLiveShare(share.with(paused: true))
        #expect(try nothingBetween(gil, hal), "a pause that read the share before the block keeps nothing")
        #expect(try store.removeBlock(by: hal, on: gil))
        try befriend(gil, hal)
        #expect(try nothingBetween(gil, hal), "and the old share does not come back with the friendship")

        try store.setLiveShare(share)
        try store.removeAsks(between: hal, and: gil)
        try store.setLiveShare(share)
        #expect(try nothingBetween(gil, hal), "nor after an unfriending")
        try store.addAsk(from: gil, to: hal, details: FriendDetails())
        try store.setLiveShare(share)
        #expect(try nothingBetween(gil, hal), "nor to someone who has not asked back")
    }

    /// A Snap posted as its poster's account is deleted (signed in before, written after) is not kept: an attacker
    /// posting Snaps from one phone while deleting the account from another left 1–2 of them in the SQLite file, with
    /// the deleted id, in 8 of 10 tries, for the glow to count.
    static func snapsDoNotOutliveTheirPoster(_ store: any LiveStore) throws {
        let lem = try PersonID("lem")
        _ = try store.addPerson(person(lem.rawValue), settings: .newPerson)
        func added(_ snap: PublicSnap) throws -> Bool {
            final class Outcome: @unchecked Sendable { var result: Result<Bool, any Error>? }
            let (outcome, done) = (Outcome(), DispatchSemaphore(value: 0))
            store.addSnap(snap) { result in
                outcome.result = result
                done.signal()
            }
            done.wait()
            return try #require(outcome.result).get()
        }
        let posted = try PublicSnap(person: lem, coordinate: Coordinate(lat: 40.71, lon: -73.95), takenAt: t0)
        #expect(try added(posted), "a person's Snap is kept")
        #expect(try store.removePerson(lem))
        let late = try PublicSnap(person: lem, coordinate: Coordinate(lat: 40.72, lon: -73.95), takenAt: t0.addingTimeInterval(1))
        #expect(try !added(late), "one written after the account went is not")
        #expect(try store.snaps(since: t0.addingTimeInterval(-3600)).allSatisfy { $0.person != lem }, "and neither is in the store")
    }
}
