import Foundation
import GeoCore
import RedisStore
import Testing
@testable import LiveMap

/// SQLite and Redis Cluster answer alike: a random world of people, asks, blocks, Ghost timers, audiences, Live
/// Location shares (paused, stopped, ending) and fixes of every age is made through the service on both stores, and every answer is compared at several server times.
enum CrossStore {
    static let t0 = StoreConformance.t0

    /// What a viewer can learn from the store at `now`: whom they see (with where and the friendship's details),
    /// their friend list, their own fix as a card uses it, and how each other person stands with them.
    static func answers(_ live: LiveMapService, _ ids: [PersonID], at now: Date) throws -> [String] {
        try ids.map { viewer in
            let seen = try live.visibleFriends(of: viewer, at: now).map {
                "\($0.person.id)@\($0.fix.coordinate.lat),\($0.fix.takenAt.timeIntervalSince1970):\($0.details.snapstreak) live \(String(describing: $0.liveUntil))"
            }
            let shares = try live.liveShares(of: viewer, at: now).map { "\($0.from)>\($0.to) \($0.until.timeIntervalSince1970) \($0.paused)" }
            let relations = try live.relations(of: viewer).map { "\($0.person.id):\($0.status)" }
            let standing = try ids.map { other in try other == viewer ? "-" : live.store.standing(of: other, for: viewer).map { "\($0)" } ?? "none" }
            let own = try live.ownFix(of: viewer, at: now).map { "\($0.takenAt.timeIntervalSince1970)" } ?? "none"
            return "\(viewer) sees \(seen) knows \(relations) stands \(standing) own \(own) shares \(shares)"
        }
    }

    /// The same random world on any store; returns whether each fix was accepted, in order (refusals included).
    static func build(_ live: LiveMapService, seed: UInt64) throws -> [String] {
        var random = SplitMix64(seed: seed)
        let ids = try (0..<12).map { try live.addPerson(id: "p\($0)", name: "Person \($0)").id }
        var outcomes: [String] = []
        for _ in 0..<60 {
            let (a, b) = (ids[Int(random.next() % 12)], ids[Int(random.next() % 12)])
            let action = random.next() % 10
            let outcome: String
            do {
                switch action {
                case 0...4: try live.requestFriend(a, b.rawValue)
                case 5: try live.block(a, b.rawValue)
                case 6: try live.unblock(a, b.rawValue)
                case 7: try live.removeFriend(a, b.rawValue)
                case 8 where random.next() % 2 == 0:
                    let start = t0.addingTimeInterval(-Double(random.next() % 4) * 1200)
                    try live.startLiveShare(a, with: b.rawValue, duration: ["15m", "1h", "8h"][Int(random.next() % 3)], now: start)
                    switch random.next() % 4 {
                    case 0: try live.pauseLiveShare(a, with: b.rawValue, paused: true, now: t0.addingTimeInterval(-3600))
                    case 1: try live.stopLiveShare(a, with: b.rawValue)
                    default: break
                    }
                default:
                    let ghost = ["off", "3h", "24h", "untilOff"][Int(random.next() % 4)]
                    let mode = ["friends", "friendsExcept", "only"][Int(random.next() % 3)]
                    try live.setSharing(a, ghost: ghost, audience: (mode, [b.rawValue]), now: t0.addingTimeInterval(-Double(random.next() % 20_000)))
                }
                outcome = "ok"
            } catch {
                outcome = "\(error)"
            }
            outcomes.append(outcome)
        }
        for id in ids {
            let age = Double(random.next() % 30) * 3600 - 3600 + Double(random.next() % 600)
            let fix = try LocationFix(lat: 40.7 + Double(random.next() % 100) / 10_000, lon: -73.95, accuracyMeters: 5, takenAt: t0.addingTimeInterval(-age))
            outcomes.append((try? live.updateLocation(id, fix: fix, now: t0)).map { "\($0)" } ?? "refused")
        }
        return outcomes
    }

}

/// In the Redis suite, which runs one test at a time: they share the cluster.
extension RedisStoreTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func aRandomWorldAnswersTheSameOnSQLiteAndRedis(seed: UInt64) throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let sqlite = LiveMapService(store: try SQLiteLiveStore(path: SQLiteStoreTests.temporaryPath(), synchronous: false))
        let redis = LiveMapService(store: try RedisLiveStore(url: cluster.url, clock: { CrossStore.t0 }))
        #expect(try CrossStore.build(sqlite, seed: seed) == CrossStore.build(redis, seed: seed), "the same writes are accepted and refused")
        let ids = try (0..<12).map { try PersonID("p\($0)") }
        for hours in [-2.0, -0.5, 0, 0.2, 1, 3, 23.5, 25, 48] {
            let now = CrossStore.t0.addingTimeInterval(hours * 3600)
            #expect(try CrossStore.answers(sqlite, ids, at: now) == CrossStore.answers(redis, ids, at: now), "at t0 + \(hours) h")
        }
    }
}
