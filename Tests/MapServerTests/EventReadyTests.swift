import Foundation
import GeoCore
@testable import LiveMap
@testable import MapServer
import Testing

/// A stream's `ready` is made of the payload texts the hub keeps per friend: byte for byte what serialising every
/// friend's payload afresh in one array makes, first and when the texts are reused, and after friends move.
@Suite("Event stream ready")
struct EventReadyTests {
    @Test func readyFromKeptTextsIsTheSerialisedArray() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-ready-\(UUID().uuidString)/live.db").path
        let hub = EventHub(live: LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false)), clock: { Date() })
        var random = SplitMix64(seed: 2807)
        let names = ["Ann", "Zoë \"Z\" Ö", "a/b\\c", "Łukasz 🚲", "<Theo & Priya>", "名前"]
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        // Two places a person: where they are first, and where they moved to (coordinates with long decimals).
        let places = (0..<80).map { _ in (40.7 + Double(random.next() % 100_000) / 3e7, -73.95 - Double(random.next() % 100_000) / 7e6, Double(random.next() % 1000) / 1000) }
        func friend(_ index: Int, moved: Bool) throws -> VisibleFriend {
            let person = try Person(id: PersonID(trusted: "p\(index)"), name: names[index % names.count] + " \(index)", color: "#0EADFF")
            let (lat, lon, second) = places[index * 2 + (moved ? 1 : 0)]
            let fix = try LocationFix(lat: lat, lon: lon, accuracyMeters: 5, takenAt: start.addingTimeInterval(second + (moved ? 60 : 0)))
            return VisibleFriend(person: person, fix: fix, details: FriendDetails())
        }
        for round in 0..<3 {
            // Round 1 reuses most of round 0's people unmoved; round 2 moves them all.
            let friends = try (0..<40).filter { round != 1 || $0 % 3 != 0 }.map { try friend($0, moved: round == 2) }
            let (kept, afresh) = hub.queue.sync { (hub.ready(friends), EventHub.event("ready", friends.map(hub.payload))) }
            #expect(kept == afresh, "round \(round)")
        }
        #expect(hub.queue.sync { hub.ready([]) } == EventHub.event("ready", [Any]()))
    }
}
