import Foundation
import GeoCore
import LiveMap
import RedisStore

/// Stores that take a whole world at once.
protocol BulkLoading {
    func bulkLoad(people: [(Person, SharingSettings)], asks: [(from: PersonID, to: PersonID, details: FriendDetails)],
                  fixes: [(PersonID, LocationFix)], tokenHashes: [(String, PersonID)]) throws
}

extension SQLiteLiveStore: BulkLoading {}
extension RedisLiveStore: BulkLoading {}

/// A large random world for the live benchmarks, loaded straight into a SQLite store: `people` people with about
/// `friendsEach` mutual friends each, realistic sharing (most share with all friends, some in Ghost Mode, some with
/// audience lists), fixes of every age around north Brooklyn. The first `community` people are also friends
/// among themselves (about 20 each) and share, so their event streams have something to carry.
struct LiveWorld {
    let people: Int
    let friendsEach: Int
    let community: Int
    let tokens: Int
    let now: Date

    /// Bumped when the store's tables change, so a cached world is rebuilt.
    static let format = 3

    static func id(_ index: Int) -> PersonID { PersonID(trusted: "p\(index)") }

    /// Builds the store at `path`; returns the tokens of people 0..<tokens, in order.
    func build(path: String) throws -> [String] {
        try load(into: SQLiteLiveStore(path: path, synchronous: false))
    }

    /// Loads the world into a store with a bulk loader (SQLite's or Redis Cluster's); returns the tokens.
    func load(into store: any BulkLoading) throws -> [String] {
        var random = SplitMix64(seed: 11)
        var persons: [(Person, SharingSettings)] = []
        var fixes: [(PersonID, LocationFix)] = []
        for index in 0..<people {
            let id = Self.id(index)
            let roll = random.unit()
            let ghost: GhostMode = index < community || roll < 0.8 ? .off : roll < 0.9 ? .timed(hours: 3, until: now.addingTimeInterval(3600)) : .untilTurnedOff
            let audienceRoll = random.unit()
            let audience: Audience = index < community || audienceRoll < 0.8 ? .friends
                : audienceRoll < 0.9 ? .friendsExcept([Self.id(Int(random.next() % UInt64(people)))]) : .only([Self.id(Int(random.next() % UInt64(people)))])
            persons.append((try Person(id: id, name: "Person \(index)", color: LiveMapService.palette[index % 8]), SharingSettings(ghost: ghost, audience: audience)))
            let age = index < community ? random.unit() * 3600 : random.unit() * 30 * 3600
            let coordinate = try Coordinate(lat: 40.69 + random.unit() * 0.05, lon: -73.99 + random.unit() * 0.07)
            fixes.append((id, try LocationFix(coordinate: coordinate, accuracyMeters: 10, takenAt: now.addingTimeInterval(-age))))
        }
        try store.bulkLoad(people: persons, asks: [], fixes: fixes, tokenHashes: [])
        var asks: [(from: PersonID, to: PersonID, details: FriendDetails)] = []
        func befriend(_ first: Int, _ second: Int) {
            guard first != second else { return }
            let details = FriendDetails(snapstreak: Int(random.next() % 300), bestFriend: random.next() % 8 == 0)
            asks.append((Self.id(first), Self.id(second), details))
            asks.append((Self.id(second), Self.id(first), details))
        }
        for index in 0..<people {
            for _ in 0..<(friendsEach / 2) { befriend(index, Int(random.next() % UInt64(people))) }
            if index < community { for _ in 0..<10 { befriend(index, Int(random.next() % UInt64(community))) } }
            if asks.count >= 1_000_000 {
                try store.bulkLoad(people: [], asks: asks.sorted { ($0.from, $0.to) < ($1.from, $1.to) }, fixes: [], tokenHashes: [])
                asks.removeAll(keepingCapacity: true)
            }
        }
        try store.bulkLoad(people: [], asks: asks.sorted { ($0.from, $0.to) < ($1.from, $1.to) }, fixes: [], tokenHashes: [])
        let tokens = self.tokenList()
        try store.bulkLoad(people: [], asks: [], fixes: [], tokenHashes: tokens.enumerated().map { (SHA256.hex(Array($0.element.utf8)), Self.id($0.offset)) })
        return tokens
    }

    /// The benchmark's sign-in tokens, the same every run (so a built world can be reused).
    func tokenList() -> [String] {
        var random = SplitMix64(seed: 5)
        return (0..<tokens).map { _ in (0..<4).map { _ in String(random.next(), radix: 16).leftPadded(to: 16) }.joined() }
    }

    /// A copy of the world at `path`, built once into `cache` (the build takes minutes) and copied after.
    func copy(to path: String, cache: URL) throws -> [String] {
        let name = "live-world-v\(Self.format)-\(people)-\(friendsEach)-\(community)-\(tokens)-\(Int(now.timeIntervalSince1970)).db"
        let cached = cache.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: cached.path) {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            let building = cache.appendingPathComponent(name + ".building")
            try? FileManager.default.removeItem(at: building)
            _ = try build(path: building.path)
            try SQLiteLiveStore.checkpoint(path: building.path)
            try FileManager.default.moveItem(at: building, to: cached)
        }
        try FileManager.default.copyItem(at: cached, to: URL(fileURLWithPath: path))
        return tokenList()
    }
}

extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
