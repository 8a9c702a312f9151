import Foundation
import GeoCore
@testable import LiveMap
@testable import RedisStore
import Testing

extension RedisStoreTests {
    /// A Snap whose poster was found just before the account's deletion and that was written after it is taken back,
    /// and another replica, which heard it after hearing the deletion (announced in another slot), drops it again: the
    /// glow keeps every Snap it hears until it hears its poster's removal, so it used to keep this one for 24 hours.
    @Test func aSnapTakenBackAfterADeletionLeavesTheOtherReplicasGlow() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let listener = try ViewedReplica(url: local.url)
        defer { listener.bus.close() }
        let glow = HeardPosters()
        listener.live.observeSnaps { glow.heard($0.person) }
        listener.live.observe { change in if case .removed(let id) = change { glow.removed(id) } }
        let store = try RedisLiveStore(url: local.url, clock: { StoreConformance.t0 })
        let (poster, leaver) = (try PersonID("poster"), try PersonID("leaver"))
        for id in [poster, leaver] { _ = try store.addPerson(StoreConformance.person(id.rawValue), settings: .newPerson) }
        let snap = { (id: PersonID) in try PublicSnap(person: id, coordinate: Coordinate(lat: 40.7123, lon: -73.9611), takenAt: StoreConformance.t0) }

        #expect(try store.removePerson(leaver))
        #expect(try !store.keepPostedSnap(snap(leaver)), "the Snap of a poster gone meanwhile is not kept")
        #expect(try store.keepPostedSnap(snap(poster)))
        try listener.waitUntilHeard()

        #expect(glow.held == [poster], "what the other replica's glow holds: \(glow.held)")
        #expect(try store.snaps(since: StoreConformance.t0.addingTimeInterval(-60)).map(\.person) == [poster])
    }
}

/// The posters a glow fed by a replica's observers holds: each Snap heard adds its poster, a removal heard drops them.
final class HeardPosters: @unchecked Sendable {
    private let lock = NSLock()
    private var posters: Set<PersonID> = []

    func heard(_ poster: PersonID) { lock.withLock { _ = posters.insert(poster) } }
    func removed(_ poster: PersonID) { lock.withLock { _ = posters.remove(poster) } }
    var held: Set<PersonID> { lock.withLock { posters } }
}
