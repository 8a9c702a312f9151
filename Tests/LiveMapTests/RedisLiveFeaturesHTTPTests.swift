import Foundation
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Live Location, Actionmoji poses and Footsteps through two `snapmap serve` replicas of one Redis Cluster (in the Redis
/// suite, which runs one test at a time: they share the cluster), as their SQLite tests drive them on one server: what
/// is written through one replica is what the other answers.
extension RedisStoreTests {
    private static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private static func body(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    /// The pins of the signed-in viewer's layout on `server`, by id.
    private static func pins(_ server: ServerFixture) async throws -> [String: [String: Any]] {
        let pins = try object(try await server.fetch("/v1/me/layout.json").2)["pins"] as? [[String: Any]] ?? []
        return Dictionary(pins.compactMap { pin in (pin["id"] as? String).map { ($0, pin) } }, uniquingKeysWith: { first, _ in first })
    }

    @Test func liveSharesPosesAndFootstepsWrittenThroughOneReplicaAreWhatTheOtherAnswers() async throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let (first, second) = (try ServerFixture(storeURL: cluster.url), try ServerFixture(storeURL: cluster.url))
        let jordan = try first.operate("users", "token", "jordan")
        let events = try EventStream(server: second, token: second.token)
        #expect(events.read(until: "event: ready", timeout: 60))
        try first.operate("sharing", "jordan", "--ghost", "untilOff")
        #expect(events.read(until: "event: disappear\ndata: {\"id\":\"jordan\"}"), "\(events.received)")

        // A live share started through the first replica shows the ghosted Jordan on the second's stream and map.
        let started = try await first.fetch("/v1/me/live-shares", method: "POST", body: Self.body(["friend": "samriv", "duration": "1h"]), token: jordan)
        #expect(started.0 == 200, "\(String(decoding: started.2, as: UTF8.self))")
        #expect(events.read(until: "event: live-started"), "\(events.received)")
        #expect(try await Self.pins(second)["jordan"] != nil, "the share shows Jordan on the other replica")

        // He drives (the phone's motion sensors and speed), through the first: the second's pin names the pose.
        let drive = try Self.body(["lat": 40.7166, "lon": -73.9622, "accuracyMeters": 5, "activity": "automotive", "speedMetersPerSecond": 12])
        #expect(try await first.fetch("/v1/me/location", method: "PUT", body: drive, token: jordan).0 == 204)
        #expect(events.read(until: "40.7166"), "\(events.received)")
        #expect(try await Self.pins(second)["jordan"]?["pose"] as? String == "driving")

        // Paused through the first, the share hides him on the second at once, as ghosting does.
        let paused = try await first.fetch("/v1/me/live-shares/samriv", method: "PATCH", body: Self.body(["paused": true]), token: jordan)
        #expect(paused.0 == 200)
        #expect(events.read(until: "event: disappear\ndata: {\"id\":\"jordan\"}", count: 2), "\(events.received)")
        #expect(try await Self.pins(second)["jordan"] == nil)

        // Sam's Footsteps: turned on through the second, kept from a fix sent through the first, read on the second by
        // him alone, and cleared through the first for both at once.
        let on = try await second.fetch("/v1/me/footsteps", method: "PUT", body: Self.body(["on": true]))
        #expect(on.0 == 200)
        let walk = try Self.body(["lat": 40.7150, "lon": -73.9600, "accuracyMeters": 5])
        #expect(try await first.fetch("/v1/me/location", method: "PUT", body: walk).0 == 204)
        let places = try Self.object(try await second.fetch("/v1/me/footsteps.json").2)["features"] as? [[String: Any]] ?? []
        let point = (places.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double]
        #expect(places.count == 1 && point == [-73.96, 40.715], "\(places)")
        let explored = try Self.object(try await second.fetch("/v1/me/explored.json").2)["neighbourhoods"] as? [[String: Any]] ?? []
        #expect(!explored.isEmpty, "what Sam explored, on the other replica")
        let jordansView = try Self.object(try await second.fetch("/v1/me/footsteps.json", token: jordan).2)["features"] as? [Any]
        #expect(jordansView?.isEmpty == true, "a friend reads only his own (none)")
        #expect(try await first.fetch("/v1/me/footsteps", method: "DELETE").0 == 204)
        let cleared = try Self.object(try await second.fetch("/v1/me/footsteps.json").2)["features"] as? [Any]
        #expect(cleared?.isEmpty == true, "cleared through one replica, none on the other")
    }
}
