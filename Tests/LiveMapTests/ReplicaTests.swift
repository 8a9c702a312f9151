import Foundation
import LiveMap
import RedisStore
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stateless `snapmap serve` replicas on one Redis Cluster (in the Redis suite, which runs one test at a time:
/// they share the cluster).
extension RedisStoreTests {
    @Test func aMoveThroughOneReplicaShowsOnTheOthersLayoutAndEvents() async throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let first = try ServerFixture(storeURL: cluster.url)
        let second = try ServerFixture(storeURL: cluster.url)
        try first.operate("sharing", "jordan", "--ghost", "off")
        let jordan = try first.operate("users", "token", "jordan")
        let events = try EventStream(server: second, token: second.token)
        events.read(until: "event: ready")
        let moved = try await first.fetch("/v1/me/location", method: "PUT",
                                          body: Data("{\"lat\": 40.71525, \"lon\": -73.96614, \"accuracyMeters\": 6, \"at\": \"2026-11-29T18:00:01Z\"}".utf8), token: jordan)
        #expect(moved.0 == 204)
        events.read(until: "40.71525")
        #expect(events.received.contains("event: move") && events.received.contains("\"id\":\"jordan\""), "the move reached the other replica's stream")
        let layout = try JSONSerialization.jsonObject(with: try await second.fetch("/v1/me/layout.json").2) as? [String: Any]
        let pins = layout?["pins"] as? [[String: Any]] ?? []
        let coordinate = pins.first { $0["id"] as? String == "jordan" }?["coordinate"] as? [String: Double]
        #expect(coordinate?["lat"] == 40.71525, "the other replica's layout has Jordan where he moved")
    }
}

extension RedisStoreTests {
    /// A phone signed out through one replica loses the stream it holds open on another within a second (the bus
    /// carries the revocation), and a removed account leaves the other replica's streams at once.
    @Test func signingOutThroughOneReplicaEndsTheStreamOnTheOther() async throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let first = try ServerFixture(storeURL: cluster.url)
        let second = try ServerFixture(storeURL: cluster.url)
        let jordan = try first.operate("users", "token", "jordan")
        let events = try EventStream(server: second, token: second.token)
        let jordans = try EventStream(server: second, token: jordan)
        #expect(events.read(until: "event: ready", timeout: 10) && jordans.read(until: "event: ready", timeout: 10))
        #expect(try await first.fetch("/v1/me", method: "DELETE", token: jordan).0 == 204)
        #expect(jordans.waitForEnd(timeout: 1), "the deleted account's stream on the other replica ended")
        #expect(events.read(until: "{\"id\":\"jordan\"}", timeout: 1), "the other replica's viewer dropped Jordan at once")
        #expect(try await first.fetch("/v1/me/session", method: "DELETE", token: second.token).0 == 204)
        #expect(events.waitForEnd(timeout: 1), "the signed-out phone's stream on the other replica ended")
        #expect(try await second.fetch("/v1/me/layout.json").0 == 401)
    }
}
