import Foundation
import GeoCore
import RedisStore
import ServerTestSupport
import Testing
@testable import LiveMap

/// Pages of Footsteps against the whole list, and the per-person cap at the cap.
@Suite("Footsteps pages and cap")
struct FootstepsPageTests {
    /// Places with many first visits at the same millisecond, not in order of first visit (as out-of-order fixes leave
    /// them on Redis).
    static func places(seed: UInt64, count: Int) throws -> [Footstep] {
        var random = SplitMix64(seed: seed)
        return try (0..<count).map { index in
            let first = StoreConformance.t0.addingTimeInterval(Double(random.next() % 40))
            return Footstep(coordinate: try Coordinate(lat: 40.7 + Double(index) * 1e-5, lon: -73.95), firstVisit: first, lastVisit: first)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func pagesFollowedToTheEndGiveEveryPlaceOnceInOrder(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let places = try Self.places(seed: seed, count: 150)
        let whole = places.enumerated().sorted { ($0.element.firstVisit, $0.offset) < ($1.element.firstVisit, $1.offset) }.map(\.element)
        var (read, cursor, pages) = ([Footstep](), FootstepsCursor?.none, 0)
        repeat {
            let limit = 1 + Int(random.next() % 12)
            let page = Footsteps.page(places, after: cursor.flatMap { FootstepsCursor($0.description) }, limit: limit)
            #expect(page.places.count <= limit && (page.next == nil || page.places.count == limit))
            read += page.places
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < 1000
        #expect(read == whole, "every place once, oldest first, ties in their order")
    }

    /// With distinct first visits (as SQLite keeps them, and Redis from fixes in order).
    @Test func aCursorStaysRightWhenTheOldestGoAndNewOnesCome() throws {
        let places = try (0..<60).map { index in
            Footstep(coordinate: try Coordinate(lat: 40.7 + Double(index) * 1e-5, lon: -73.95), firstVisit: StoreConformance.t0.addingTimeInterval(Double(index)),
                     lastVisit: StoreConformance.t0.addingTimeInterval(Double(index)))
        }
        let first = Footsteps.page(places, after: nil, limit: 20)
        let next = try #require(first.next)
        let seen = Set(first.places.map(\.coordinate))
        // The oldest ten go (the cap), two newer ones come.
        let sorted = places.sorted { $0.firstVisit < $1.firstVisit }
        let later = try (0..<2).map { Footstep(coordinate: try Coordinate(lat: 41 + Double($0), lon: -73.9), firstVisit: StoreConformance.t0.addingTimeInterval(100),
                                                lastVisit: StoreConformance.t0.addingTimeInterval(100)) }
        let changed = places.filter { place in !sorted.prefix(10).contains(place) } + later
        var rest: [Footstep] = []
        var cursor: FootstepsCursor? = next
        while let at = cursor {
            let page = Footsteps.page(changed, after: at, limit: 20)
            rest += page.places
            cursor = page.next
        }
        #expect(Set(rest.map(\.coordinate)).isDisjoint(with: seen), "nothing read twice")
        #expect(Set(rest.map(\.coordinate)).union(seen) == Set(places.map(\.coordinate) + later.map(\.coordinate)), "nothing missed")
    }

    @Test func cursorsAreReadAsWrittenAndNothingElse() {
        #expect(FootstepsCursor("1796000000123.2") == FootstepsCursor(firstVisitMilliseconds: 1_796_000_000_123, skip: 2))
        for bad in ["", "12", "12.", ".3", "1.2.3", "-1.2", "a.b", "1 .2", "١٢.3", "1234567890123456789.1"] { #expect(FootstepsCursor(bad) == nil, "\(bad)") }
    }

    /// At the cap: a fixture of exactly `maxPlaces` places written in one statement, then fixes that start places:
    /// each drops the oldest, and the count stays at the cap.
    @Test func theCapKeepsTheNewestPlacesAndTheOldestGoFirst() throws {
        let store = try SQLiteLiveStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-cap-\(UUID().uuidString).db").path,
                                        synchronous: false)
        let gus = try PersonID("gus")
        _ = try store.addPerson(StoreConformance.person("gus"), settings: .newPerson)
        try store.setFootsteps(on: true, of: gus)
        let start = SQLiteSchema.milliseconds(StoreConformance.t0)
        try store.write { database in
            try database.change("""
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2)
                INSERT INTO footsteps SELECT (SELECT row FROM people WHERE id = 'gus'), ?1 + i * 1000, ?1 + i * 1000, 40.70 + (i % 2) * 0.001, -73.95 FROM n
                """, [.integer(start), .integer(Footsteps.maxPlaces)])
        }
        func countAndOldest() throws -> (Int?, Int?) {
            let row = try store.read { try $0.query("SELECT count(*), min(first_ms) FROM footsteps").first }
            return (row?[0].integer, row?[1].integer)
        }
        #expect(try countAndOldest() == (Footsteps.maxPlaces, start))
        for step in 0..<3 {
            _ = try store.recordFix(StoreConformance.fix(40.72 + Double(step) * 0.01, -73.95, at: Double(Footsteps.maxPlaces + step)), of: gus)
            #expect(try countAndOldest() == (Footsteps.maxPlaces, start + (step + 1) * 1000), "the cap holds and the oldest went first")
        }
        let kept = try store.footsteps(of: gus)
        #expect(kept.count == Footsteps.maxPlaces && kept.suffix(3).map(\.coordinate.lat) == [40.72, 40.73, 40.74], "the newest are kept")
    }
}

extension RedisStoreTests {
    /// The cap on Redis Cluster, as on SQLite: a list of exactly `maxPlaces` places pushed in ten commands, then fixes
    /// that start places: each drops the oldest, and the list stays at the cap.
    @Test func theCapKeepsTheNewestPlacesOnRedisToo() throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let store = try RedisLiveStore(url: cluster.url, clock: { StoreConformance.t0.addingTimeInterval(Double(Footsteps.maxPlaces)) })
        let gus = try PersonID("gus")
        _ = try store.addPerson(StoreConformance.person("gus"), settings: .newPerson)
        try store.setFootsteps(on: true, of: gus)
        let redis = try RedisCluster(seeds: RedisCluster.seeds(from: cluster.url))
        let start = Int((StoreConformance.t0.timeIntervalSince1970 * 1000).rounded())
        let key = "{p:gus}:steps"
        for batch in stride(from: 0, to: Footsteps.maxPlaces, by: 10_000) {
            _ = try redis.run([["RPUSH", key] + (batch..<batch + 10_000).map { "\(start + $0 * 1000),\(start + $0 * 1000),\(40.70 + Double($0 % 2) * 0.001),-73.95" }])
        }
        func lengthAndOldest() throws -> (Int?, String?) {
            let replies = try redis.run([["LLEN", key], ["LINDEX", key, "0"]])
            return (replies[0].integer, replies[1].text?.split(separator: ",").first.map(String.init))
        }
        #expect(try lengthAndOldest() == (Footsteps.maxPlaces, "\(start)"))
        for step in 0..<3 {
            _ = try store.recordFix(StoreConformance.fix(40.72 + Double(step) * 0.01, -73.95, at: Double(Footsteps.maxPlaces + step)), of: gus)
            #expect(try lengthAndOldest() == (Footsteps.maxPlaces, "\(start + (step + 1) * 1000)"), "the cap holds and the oldest went first")
        }
        #expect(try store.footsteps(of: gus).suffix(3).map(\.coordinate.lat) == [40.72, 40.73, 40.74], "the newest are kept")
    }
}
