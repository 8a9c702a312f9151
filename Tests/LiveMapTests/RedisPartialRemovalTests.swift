import Foundation
@testable import LiveMap
@testable import RedisStore
import Testing

extension RedisStoreTests {
    /// A removal that fails part way, because the master of its tokens' slot refuses writes, is finished by trying it
    /// again: no token of the deleted id signs anyone in and no ask names it. The removal used to delete the person's
    /// own keys in the same write as the others' entries, so when the person's master took its part and the refusing
    /// one did not, the retry found no person, answered "no such id" and left the token to whoever took the id next.
    /// Eight removals, since which master the write reaches first varies from call to call.
    @Test func aRemovalThatFailsPartWayIsFinishedByItsRetry() throws {
        let (leavers, hashes, friend) = try Self.interruptedRemovals()
        let retrying = try RedisLiveStore(url: try RedisClusterFixture.shared.get().url, clock: { StoreConformance.t0 })
        let finished = try leavers.filter { try retrying.removePerson($0) }.count
        #expect(finished == 8, "each retry found the person and finished the removal")
        let (signedIn, asking) = (try hashes.compactMap { try retrying.tokenOwner(hash: $0) }, try retrying.related(to: friend))
        #expect(signedIn.isEmpty && asking.isEmpty, "tokens left: \(signedIn); asks left: \(asking)")
    }

    /// The same removals are finished with nobody asking again: a server finishes every removal listed as begun
    /// (`finishInterruptedRemovals`, which `serve` runs every `LiveMapService.removalRetrySeconds`), and then none is
    /// listed. Before, a deletion whose request failed part way stayed half done until someone deleted again.
    @Test func anInterruptedRemovalIsFinishedWithoutAnyoneAskingAgain() throws {
        let (leavers, hashes, friend) = try Self.interruptedRemovals()
        let server = try RedisLiveStore(url: try RedisClusterFixture.shared.get().url, clock: { StoreConformance.t0 })
        #expect(Set(try server.finishInterruptedRemovals()) == Set(leavers), "the server finished all eight")
        let (signedIn, asking) = (try hashes.compactMap { try server.tokenOwner(hash: $0) }, try server.related(to: friend))
        #expect(signedIn.isEmpty && asking.isEmpty, "tokens left: \(signedIn); asks left: \(asking)")
        #expect(try server.finishInterruptedRemovals().isEmpty, "none is listed as begun any more")
        let gone = try leavers.allSatisfy { try !server.removePerson($0) }
        #expect(gone, "each id is gone")
    }

    /// Eight people with a token each and asks both ways with a friend, whose removals fail part way: the master of
    /// their tokens' slot refuses writes (not the master that lists removals begun). Returns them, their token
    /// hashes and the friend.
    static func interruptedRemovals() throws -> ([PersonID], [String], PersonID) {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let owners = try local.slotOwners()
        let master = { (key: String) in owners[RedisCluster.slot(of: key)] }
        let refusing = try #require(try local.masters().first { $0 != master(RedisKeys.removals) })
        let leavers = Array((0..<400).map { PersonID(trusted: "leaver\($0)") }.filter { master(RedisKeys.person($0)) != refusing }.prefix(8))
        let hashes = Array((0..<400).map { "phone\($0)" }.filter { master(RedisKeys.token($0)) == refusing }.prefix(8))
        let friend = PersonID(trusted: "friend")
        let store = try RedisLiveStore(url: local.url, clock: { StoreConformance.t0 })
        _ = try store.addPerson(StoreConformance.person(friend.rawValue), settings: .newPerson)
        for (leaver, hash) in zip(leavers, hashes) {
            _ = try store.addPerson(StoreConformance.person(leaver.rawValue), settings: .newPerson)
            try store.addToken(hash: hash, for: leaver)
            for (a, b) in [(friend, leaver), (leaver, friend)] { try store.addAsk(from: a, to: b, details: FriendDetails()) }
        }
        let admin = try RedisConnection(host: "127.0.0.1", port: refusing)
        let setting = try admin.command(["CONFIG", "GET", "min-replicas-to-write"]).elements.last?.text ?? "1"
        _ = try admin.command(["CONFIG", "SET", "min-replicas-to-write", "9"])
        defer { _ = try? admin.command(["CONFIG", "SET", "min-replicas-to-write", setting]) }
        for leaver in leavers { #expect(throws: LiveMapError.self) { try store.removePerson(leaver) } }
        _ = try admin.command(["CONFIG", "SET", "min-replicas-to-write", setting])
        #expect(try leavers.allSatisfy { try store.standing(of: $0, for: friend) == nil }, "meanwhile each answers as nobody")
        return (leavers, hashes, friend)
    }
}
