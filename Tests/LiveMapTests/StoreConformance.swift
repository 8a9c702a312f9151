import Foundation
import GeoCore
import RedisStore
import SQLiteKit
import ServerTestSupport
import Testing
@testable import LiveMap

/// What every `LiveStore` must do, run against each implementation: a fresh, empty store per call.
enum StoreConformance {
    static let t0 = Date(timeIntervalSince1970: 1_796_000_000)

    static func person(_ id: String, _ name: String? = nil) throws -> Person {
        try Person(id: PersonID(id), name: name ?? id.capitalized, color: "#0EADFF")
    }

    static func fix(_ lat: Double, _ lon: Double, at seconds: Double) throws -> LocationFix {
        try LocationFix(lat: lat, lon: lon, accuracyMeters: 8, takenAt: t0.addingTimeInterval(seconds), place: "Somewhere")
    }

    static func run(_ store: any LiveStore) throws {
        let (ann, bob, cat) = (try PersonID("ann"), try PersonID("bob"), try PersonID("cat"))
        #expect(store.health() == .ready, "a working store reports ready")
        #expect(try store.addPerson(person("ann", "Ann Lee"), settings: .newPerson))
        #expect(try !store.addPerson(person("ann", "Someone Else"), settings: .newPerson), "an id is added once")
        #expect(try store.person(ann)?.name == "Ann Lee")
        #expect(try store.addPerson(person("bob"), settings: SharingSettings(ghost: .off, audience: .friends)))
        #expect(try store.addPerson(person("cat"), settings: SharingSettings(ghost: .off, audience: .only([ann]))))
        #expect(try store.people(after: nil, limit: 2).map(\.id) == [ann, bob])
        #expect(try store.people(after: bob, limit: 10).map(\.id) == [cat])
        #expect(try store.person(PersonID("nobody")) == nil)

        // Settings round trip, timers included.
        let timed = SharingSettings(ghost: .timed(hours: 3, until: t0.addingTimeInterval(3 * 3600)), audience: .friendsExcept([bob, cat]))
        try store.setSharing(timed, of: ann)
        #expect(try store.sharing(of: ann) == timed)
        #expect(try store.sharing(of: cat)?.audience == .only([ann]))

        // Friendship is two asks; details belong to the asker.
        try store.addAsk(from: ann, to: bob, details: FriendDetails(snapstreak: 12, bestFriend: true))
        #expect(try store.asks(from: ann, to: bob) && !store.asks(from: bob, to: ann))
        #expect(try store.relations(of: ann).map(\.status) == [.requested])
        #expect(try store.relations(of: bob).map(\.status) == [.incoming])
        try store.addAsk(from: bob, to: ann, details: FriendDetails())
        try store.addAsk(from: ann, to: bob, details: FriendDetails(snapstreak: 13, bestFriend: true))
        #expect(try store.relations(of: ann).map { $0.person.id } == [bob] && store.relations(of: ann).first?.status == .friends)
        #expect(try Set(store.related(to: bob)) == [ann])

        // Fixes: only newer ones are kept.
        #expect(try store.recordFix(fix(40.71, -73.96, at: -60), of: bob))
        #expect(try !store.recordFix(fix(40.0, -73.0, at: -120), of: bob), "an older fix is ignored")
        #expect(try !store.recordFix(fix(40.0, -73.0, at: -60), of: bob), "the same time again is ignored")
        #expect(try store.fix(of: bob) == fix(40.71, -73.96, at: -60))
        #expect(try store.recordFix(fix(40.72, -73.95, at: 0), of: bob))
        #expect(try store.fix(of: bob)?.coordinate.lat == 40.72)

        // Candidates carry the facts the rule needs.
        let candidates = try store.candidates(of: ann)
        #expect(candidates.map(\.person.id) == [bob])
        let facts = try #require(candidates.first?.facts)
        let latest = try fix(40.72, -73.95, at: 0)
        #expect(facts.viewerAsked && facts.personAsked && !facts.blocked && facts.fix == latest)
        #expect(candidates.first?.details == FriendDetails(snapstreak: 13, bestFriend: true))
        let single = try #require(try store.candidate(viewer: bob, person: ann))
        #expect(single.facts.settings == timed && single.facts.fix == nil && single.facts.personAsked)
        #expect(try store.candidate(viewer: ann, person: cat)?.facts.viewerAsked == false)
        #expect(try store.candidate(viewer: ann, person: PersonID("nobody")) == nil)

        // Blocks end the friendship and are seen from both sides.
        try store.addAsk(from: cat, to: ann, details: FriendDetails())
        try store.addBlock(by: ann, on: cat)
        #expect(try store.blocked(between: cat, and: ann) && !store.asks(from: cat, to: ann))
        #expect(try store.relations(of: ann).map(\.person.id) == [bob])
        #expect(try store.removeBlock(by: ann, on: cat) && !store.removeBlock(by: ann, on: cat))
        #expect(try !store.blocked(between: ann, and: cat))
        try store.removeAsks(between: bob, and: ann)
        #expect(try store.relations(of: ann).isEmpty && store.candidates(of: ann).isEmpty)

        // Public Snaps: kept, read from a time on, pruned before one.
        let snaps = try (0..<4).map { index in
            try PublicSnap(person: [ann, bob][index % 2], coordinate: Coordinate(lat: 40.71, lon: -73.95), takenAt: t0.addingTimeInterval(Double(index) * 600))
        }
        try store.addSnaps(Array(snaps.prefix(3)))
        let done = DispatchSemaphore(value: 0)
        store.addSnap(snaps[3]) { result in
            if case .failure(let error) = result { Issue.record(error) }
            done.signal()
        }
        done.wait()
        #expect(try store.snaps(since: t0.addingTimeInterval(600)) == Array(snaps.dropFirst()))
        #expect(try store.pruneSnaps(before: t0.addingTimeInterval(1200)) == 2)
        #expect(try store.snaps(since: t0) == Array(snaps.suffix(2)))

        // Tokens are looked up by hash and revoked per person.
        try store.addToken(hash: "h1", for: ann)
        try store.addToken(hash: "h2", for: ann)
        try store.addToken(hash: "h3", for: bob)
        #expect(try store.tokenOwner(hash: "h2") == ann && store.tokenOwner(hash: "nope") == nil)
        #expect(try store.revokeTokens(of: ann) == 2)
        #expect(try store.tokenOwner(hash: "h1") == nil && store.tokenOwner(hash: "h3") == bob)
        #expect(try store.removeToken(hash: "h3") == bob && store.removeToken(hash: "h3") == nil)
        #expect(try store.tokenOwner(hash: "h3") == nil)
        try accountsAndStanding(store, ann, bob, cat)
        try liveShares(store)
        try racedWrites(store)
        try footsteps(store)
        try footstepsByPlace(store)
        try motionAndBirthday(store)
    }

    /// Standing sees a blocker as nobody; removing a person leaves no fact that names them.
    static func accountsAndStanding(_ store: any LiveStore, _ ann: PersonID, _ bob: PersonID, _ cat: PersonID) throws {
        let nobody = try PersonID("nobody")
        try store.addAsk(from: ann, to: bob, details: FriendDetails())
        #expect(try store.standing(of: bob, for: ann) == Standing(meAsk: true, theyAsk: false, meBlocks: false))
        #expect(try store.standing(of: ann, for: bob) == Standing(meAsk: false, theyAsk: true, meBlocks: false))
        #expect(try store.standing(of: nobody, for: ann) == nil)
        try store.addBlock(by: cat, on: ann)
        #expect(try store.standing(of: cat, for: ann) == nil, "a blocker has no standing, like an unknown id")
        #expect(try store.standing(of: ann, for: cat) == Standing(meAsk: false, theyAsk: false, meBlocks: true))
        try store.addBlock(by: ann, on: cat)
        #expect(try store.standing(of: cat, for: ann) == nil, "blocked both ways: still nobody to ann")

        try store.setSharing(SharingSettings(ghost: .off, audience: .only([ann, cat])), of: bob)
        try store.addToken(hash: "cat-phone", for: cat)
        try store.addSnaps([PublicSnap(person: cat, coordinate: Coordinate(lat: 40.7, lon: -73.9), takenAt: t0)])
        _ = try store.recordFix(fix(40.7, -73.9, at: 0), of: cat)
        #expect(try store.removePerson(cat) && !store.removePerson(cat))
        #expect(try store.person(cat) == nil && store.fix(of: cat) == nil && store.sharing(of: cat) == nil)
        #expect(try store.tokenOwner(hash: "cat-phone") == nil && !store.blocked(between: ann, and: cat))
        #expect(try store.sharing(of: bob)?.audience == .only([ann, cat]),
                "others' audiences keep the id as written, as they keep one that never existed (a removal is not told apart from a block)")
        // Writes whose requests were signed in before the removal and reach the store after it keep nothing of cat.
        try store.setSharing(SharingSettings(ghost: .off, audience: .friends), of: cat)
        try store.setFootsteps(on: true, of: cat)
        #expect(try !store.recordFix(fix(40.71, -73.91, at: 60), of: cat), "a fix written after the removal is not kept")
        let late = DispatchSemaphore(value: 0)
        let kept = Kept()
        store.addSnap(try PublicSnap(person: cat, coordinate: Coordinate(lat: 40.71, lon: -73.91), takenAt: t0.addingTimeInterval(60))) { result in
            kept.set(try? result.get())
            late.signal()
        }
        late.wait()
        #expect(kept.value == false, "a Snap written after its poster's removal says it was not kept")
        #expect(try store.person(cat) == nil && store.fix(of: cat) == nil && store.sharing(of: cat) == nil)
        #expect(try store.snaps(since: t0.addingTimeInterval(-60)).allSatisfy { $0.person != cat })
        #expect(try store.standing(of: cat, for: ann) == nil && store.related(to: ann) == [bob])
        #expect(try store.addPerson(person("cat", "A New Cat"), settings: .newPerson), "the id is free again")
        #expect(try store.candidate(viewer: ann, person: cat)?.facts.blocked == false, "and starts with nothing of the old one")
    }
}

@Suite("The SQLite live store")
struct SQLiteStoreTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-live-\(UUID().uuidString)/live.db").path
    }

    @Test func passesTheConformanceSuite() throws {
        try StoreConformance.run(SQLiteLiveStore(path: Self.temporaryPath()))
    }

    @Test func reopeningKeepsEverythingAndTheSchemaVersion() throws {
        let path = Self.temporaryPath()
        do {
            let store = try SQLiteLiveStore(path: path)
            _ = try store.addPerson(StoreConformance.person("ann"), settings: .newPerson)
            _ = try store.recordFix(StoreConformance.fix(40.7, -73.9, at: 0), of: PersonID("ann"))
        }
        let reopened = try SQLiteLiveStore(path: path)
        #expect(try reopened.fix(of: PersonID("ann")) == StoreConformance.fix(40.7, -73.9, at: 0))
    }

    @Test func aVersionOneFileIsMigratedAndANewerOneRefused() throws {
        let path = Self.temporaryPath()
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let old = try SQLiteDatabase(path: path)
            try old.execute(SQLiteSchema.version1 + "PRAGMA user_version = 1;")
            try old.execute("INSERT INTO people (id, name, color, avatar, ghost, ghost_hours, ghost_until_ms, audience, audience_ids) VALUES ('ann', 'Ann', '#000000', NULL, 'off', 0, 0, 'friends', '')")
        }
        let store = try SQLiteLiveStore(path: path)
        #expect(try store.person(PersonID("ann"))?.name == "Ann", "the people of version 1 are kept")
        let snap = try PublicSnap(person: PersonID("ann"), coordinate: Coordinate(lat: 40.7, lon: -73.9), takenAt: StoreConformance.t0)
        try store.addSnaps([snap])
        #expect(try store.snaps(since: StoreConformance.t0) == [snap], "version 2's Snaps work")
        #expect(try SQLiteDatabase(path: path).query("PRAGMA user_version").first?.first?.integer == SQLiteLiveStore.schemaVersion)
        try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")
        #expect(throws: LiveMapError.self) { try SQLiteLiveStore(path: path) }
    }

    @Test func concurrentWritersAllLand() async throws {
        let store = try SQLiteLiveStore(path: Self.temporaryPath(), synchronous: false)
        let ids = try (0..<40).map { try PersonID("p\($0)") }
        for id in ids { _ = try store.addPerson(Person(id: id, name: id.rawValue, color: "#000000"), settings: .newPerson) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, id) in ids.enumerated() {
                group.addTask {
                    for step in 0..<25 { _ = try store.recordFix(StoreConformance.fix(40 + Double(index) / 100, -73, at: Double(step)), of: id) }
                }
            }
            try await group.waitForAll()
        }
        for id in ids { #expect(try store.fix(of: id)?.takenAt == StoreConformance.t0.addingTimeInterval(24)) }
    }
}

@Suite("The Redis Cluster live store", .serialized)
struct RedisStoreTests {
    @Test func passesTheConformanceSuite() throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        try StoreConformance.run(RedisLiveStore(url: cluster.url, clock: { StoreConformance.t0 }))
    }

    /// A server whose clock is years behind Redis's (a demo, a replay) keeps its Snaps for a day of its own time, and
    /// its fixes as SQLite does: until replaced (the rule, by the server's clock, hides old ones), never by Redis's.
    @Test func whatExpiresExpiresByTheServersClockNotByRedis() throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let taken = Date(timeIntervalSince1970: 1_500_000_000)
        let store = try RedisLiveStore(url: cluster.url, clock: { taken.addingTimeInterval(3600) })
        let ann = PersonID(trusted: "ann")
        _ = try store.addPerson(StoreConformance.person("ann"), settings: .newPerson)
        #expect(try store.recordFix(LocationFix(lat: 40.71, lon: -73.95, accuracyMeters: 5, takenAt: taken, place: nil), of: ann))
        #expect(try store.fix(of: ann)?.takenAt == taken)
        let redis = try RedisCluster(seeds: RedisCluster.seeds(from: cluster.url))
        #expect(try redis.run([["PTTL", "{p:ann}:fix"]])[0].integer == -1, "a fix has no expiry of Redis's clock")
        let snap = try PublicSnap(person: ann, coordinate: Coordinate(lat: 40.71, lon: -73.95), takenAt: taken)
        try store.addSnaps([snap])
        #expect(try store.snaps(since: taken) == [snap])
        let left = try redis.run([["TTL", "{snapset:\(Int(taken.timeIntervalSince1970) / 3600)}"]])[0].integer ?? -1
        #expect(abs(left - 26 * 3600) < 3600 + 60, "an hour's Snaps go 26 hours after the hour, by the server's clock: \(left) s left")
    }

    /// A client that retries a Snap whose answer it lost (a 503 after the write was applied) adds no weight.
    @Test func theSameSnapWrittenTwiceIsOneSnap() throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let store = try RedisLiveStore(url: cluster.url, clock: { StoreConformance.t0 })
        let snap = try PublicSnap(person: PersonID("ann"), coordinate: Coordinate(lat: 40.71, lon: -73.95), takenAt: StoreConformance.t0)
        let later = try PublicSnap(person: PersonID("ann"), coordinate: Coordinate(lat: 40.71, lon: -73.95), takenAt: StoreConformance.t0.addingTimeInterval(1))
        try store.addSnaps([snap])
        try store.addSnaps([snap, later])
        #expect(try store.snaps(since: StoreConformance.t0.addingTimeInterval(-60)) == [snap, later])
        #expect(try store.pruneSnaps(before: StoreConformance.t0.addingTimeInterval(0.5)) == 1)
        #expect(try store.snaps(since: StoreConformance.t0.addingTimeInterval(-60)) == [later])
    }

    @Test func keysFollowTheirHashTagsToTheirSlots() throws {
        #expect(RedisCluster.slot(of: "123456789") == 12739, "the CRC16 check value of Redis's cluster specification")
        #expect(RedisCluster.slot(of: "{p:ann}:asks") == RedisCluster.slot(of: "{p:ann}:fix"))
        #expect(RedisCluster.slot(of: "{p:ann}") == RedisCluster.slot(of: "p:ann"))
        let keys = ["{}x", "x{}", "a{b", "a}b{", "{}{p:ann}"]
        #expect(keys.map(RedisCluster.slot(of:)) == (try keys.map(Self.wholeKeySlot)), "an empty or unclosed tag hashes the whole key")
    }

    /// The slot of a key hashed whole: CRC-16/XMODEM by Python's `binascii.crc_hqx`, modulo 16384.
    static func wholeKeySlot(_ key: String) throws -> Int {
        let script = "import binascii,sys; print(binascii.crc_hqx(sys.argv[1].encode(), 0) % 16384)"
        let result = try TestProcess.run(program: "python3", ["-c", script, key])
        return try #require(Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)), "python3: \(result.errorOutput)")
    }
}

/// What a store's completion said, kept for the test's thread.
final class Kept: @unchecked Sendable {
    private let lock = NSLock()
    private var said: Bool?

    func set(_ value: Bool?) { lock.withLock { said = value } }
    var value: Bool? { lock.withLock { said } }
}
