import Foundation
import GeoCore
@testable import LiveMap
@testable import RedisStore
import Testing

extension RedisStoreTests {
    /// A friend request that lands inside a deletion (after it read who asks the person, before it wrote) keeps
    /// nothing, either way: an attacker racing requests against `DELETE /v1/me` left the deleted id in the asker's
    /// requests and in sets of their own in 3 of 3 rounds, and a new account taking the id would have inherited them.
    @Test func anAskLandingInsideADeletionKeepsNothing() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let store = try RedisLiveStore(url: local.url, clock: { StoreConformance.t0 })
        let (asker, leaver, other) = (try PersonID("asker"), try PersonID("leaver"), try PersonID("other"))
        for id in [asker, leaver, other] { _ = try store.addPerson(StoreConformance.person(id.rawValue), settings: .newPerson) }

        let facts = try store.beginRemoval(of: leaver)
        try store.addAsk(from: asker, to: leaver, details: FriendDetails())
        try store.addAsk(from: leaver, to: other, details: FriendDetails())
        #expect(try store.finishRemoval(of: leaver, facts: facts))

        #expect(try !store.asks(from: asker, to: leaver) && !store.asks(from: leaver, to: other))
        #expect(try store.relations(of: asker).isEmpty && store.relations(of: other).isEmpty && store.related(to: other).isEmpty)
        #expect(try store.addPerson(StoreConformance.person(leaver.rawValue), settings: .newPerson))
        #expect(try store.relations(of: leaver).isEmpty && store.related(to: leaver).isEmpty, "a new person of that id has no request")
        try store.addAsk(from: asker, to: other, details: FriendDetails())
        #expect(try store.asks(from: asker, to: other), "an ask between people who stay is kept")
    }

    /// A block or a Live Location share, either way, that lands inside a deletion keeps nothing naming the deleted id
    /// in the other person's keys (the removal read their blocks and shares before).
    @Test func aBlockOrShareLandingInsideADeletionKeepsNothing() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let store = try RedisLiveStore(url: local.url, clock: { StoreConformance.t0 })
        let (friend, leaver, blocker) = (try PersonID("friend"), try PersonID("leaver"), try PersonID("blocker"))
        for id in [friend, leaver, blocker] { _ = try store.addPerson(StoreConformance.person(id.rawValue), settings: .newPerson) }
        for (a, b) in [(friend, leaver), (leaver, friend)] { try store.addAsk(from: a, to: b, details: FriendDetails()) }
        let hour = StoreConformance.t0.addingTimeInterval(3600)

        let facts = try store.beginRemoval(of: leaver)
        try store.setLiveShare(LiveShare(from: friend, to: leaver, startedAt: StoreConformance.t0, until: hour, paused: false))
        try store.setLiveShare(LiveShare(from: leaver, to: friend, startedAt: StoreConformance.t0, until: hour, paused: false))
        try store.addBlock(by: blocker, on: leaver)
        #expect(try store.finishRemoval(of: leaver, facts: facts))

        #expect(try store.liveShares(of: friend).isEmpty, "no share names the deleted id")
        #expect(try !store.blocked(between: blocker, and: leaver), "no block names the deleted id")
        #expect(try store.addPerson(StoreConformance.person(leaver.rawValue), settings: .newPerson))
        #expect(try store.liveShares(of: leaver).isEmpty && store.standing(of: leaver, for: blocker)?.meBlocks != true,
                "a new person of that id inherits no share and no block")
        try store.addBlock(by: blocker, on: friend)
        #expect(try store.blocked(between: blocker, and: friend), "a block between people who stay is kept")
    }

    /// A token minted inside a deletion is refused and taken back: nobody who takes the id next signs in with it.
    @Test func aTokenMintedInsideADeletionSignsNobodyIn() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let store = try RedisLiveStore(url: local.url, clock: { StoreConformance.t0 })
        let leaver = try PersonID("leaver")
        _ = try store.addPerson(StoreConformance.person(leaver.rawValue), settings: .newPerson)

        let facts = try store.beginRemoval(of: leaver)
        #expect(throws: LiveMapError.notFound(id: leaver.rawValue)) { try store.addToken(hash: "late-phone", for: leaver) }
        #expect(try store.finishRemoval(of: leaver, facts: facts))
        #expect(try store.addPerson(StoreConformance.person(leaver.rawValue), settings: .newPerson))
        #expect(try store.tokenOwner(hash: "late-phone") == nil, "the new person of that id is not signed in by it")
        try store.addToken(hash: "new-phone", for: leaver)
        #expect(try store.tokenOwner(hash: "new-phone") == leaver, "their own token works")
    }

    /// A Footsteps place read before a deletion and written after it (the fix's own write came first) keeps nothing:
    /// the place used to be pushed into a list the removal had already deleted, naming where the deleted person was.
    @Test func aFootstepLandingAfterADeletionKeepsNothing() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let store = try RedisLiveStore(url: local.url, clock: { StoreConformance.t0 })
        let (walker, leaver) = (try PersonID("walker"), try PersonID("leaver"))
        for id in [walker, leaver] {
            _ = try store.addPerson(StoreConformance.person(id.rawValue), settings: .newPerson)
            try store.setFootsteps(on: true, of: id)
            _ = try store.recordFix(StoreConformance.fix(40.71, -73.95, at: 0), of: id)
        }
        let late = try StoreConformance.fix(40.72, -73.96, at: 900)
        let pending = try #require(try store.footstepCommands(after: late, of: leaver))

        #expect(try store.removePerson(leaver))
        try store.writeFootstep(pending, of: leaver)
        let left = try store.read([["EXISTS", RedisKeys.footsteps(leaver)], ["EXISTS", RedisKeys.footstepPlaces(leaver)]])
        #expect(left.map(\.integer) == [0, 0], "no list or geo set names the deleted person's places")

        let walkers = try #require(try store.footstepCommands(after: late, of: walker))
        try store.writeFootstep(walkers, of: walker)
        #expect(try store.footsteps(of: walker).count == 2, "a person who stays keeps the place")
    }
}
