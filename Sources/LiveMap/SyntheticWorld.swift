import Foundation
import GeoCore

/// What takes a whole world at once, without announcing a change: a new store before any server serves it, or a
/// view built in memory.
public protocol WorldLoading: AnyObject {
    /// People with their settings, then asks, fixes and token hashes between people already loaded.
    func bulkLoad(people: [(Person, SharingSettings)], asks: [(from: PersonID, to: PersonID, details: FriendDetails)],
                  fixes: [(PersonID, LocationFix)], tokenHashes: [(String, PersonID)]) throws
}

/// Stores that take a whole world at once.
public protocol BulkLoadingStore: LiveStore, WorldLoading {}

extension SQLiteLiveStore: BulkLoadingStore {}

/// A load-test world of any size, the same for the same numbers and seed: people `p0`, `p1`, … with about
/// `friendsEach` mutual friends each (random across the world) and realistic sharing (8 in 10 share with all
/// friends, the rest in Ghost Mode or with an audience list), fixes of every age up to 30 hours around north
/// Brooklyn. The first `community` people are also friends among themselves (about 20 each more), share with all
/// their friends, and have fixes from the last hour, so their maps and event streams have something to carry.
public struct SyntheticWorld: Sendable {
    public static let peopleRange = 1...10_000_000
    public static let friendsRange = 0...1_000
    /// Asks loaded per bulk write, so memory stays bounded whatever the world's size.
    static let asksPerLoad = 1_000_000

    public let people: Int
    public let friendsEach: Int
    public let community: Int
    public let now: Date
    public let seed: UInt64

    /// Validates the sizes, naming the field and its range; `community` is clamped to `people`.
    public init(people: Int, friendsEach: Int, community: Int, now: Date, seed: UInt64 = 11) throws(LiveMapError) {
        guard Self.peopleRange.contains(people) else {
            throw .invalid(field: "people", message: "must be in \(Self.peopleRange.lowerBound)…\(Self.peopleRange.upperBound), got \(people)")
        }
        guard Self.friendsRange.contains(friendsEach) else {
            throw .invalid(field: "friends-each", message: "must be in \(Self.friendsRange.lowerBound)…\(Self.friendsRange.upperBound), got \(friendsEach)")
        }
        guard community >= 0 else { throw .invalid(field: "community", message: "must be 0 or more, got \(community)") }
        self.people = people
        self.friendsEach = friendsEach
        self.community = min(community, people)
        self.now = now
        self.seed = seed
    }

    /// The id of the person at `index`.
    public static func id(_ index: Int) -> PersonID { PersonID(trusted: "p\(index)") }

    /// Loads the world into `store`, and `tokens[i]` as a sign-in token of person i (hashes only are stored).
    public func load(into store: any WorldLoading, tokens: [String]) throws {
        var random = SplitMix64(seed: seed)
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
            if asks.count >= Self.asksPerLoad {
                try store.bulkLoad(people: [], asks: asks.sorted { ($0.from, $0.to) < ($1.from, $1.to) }, fixes: [], tokenHashes: [])
                asks.removeAll(keepingCapacity: true)
            }
        }
        try store.bulkLoad(people: [], asks: asks.sorted { ($0.from, $0.to) < ($1.from, $1.to) }, fixes: [], tokenHashes: [])
        let hashes = tokens.prefix(people).enumerated().map { (LiveMapService.tokenHash($0.element), Self.id($0.offset)) }
        try store.bulkLoad(people: [], asks: [], fixes: [], tokenHashes: hashes)
    }

    /// `count` sign-in tokens from the system's random source, as `mintToken` makes them.
    public static func randomTokens(count: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            (0..<4).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
        }
    }
}
