import Foundation
import ServerTestSupport
import Testing

/// An order on a `snapmap serve` replica of Redis Cluster (in the Redis suite, which runs one test at a time: they
/// share the cluster), as `OrderHTTPTests` drives one on SQLite.
extension RedisStoreTests {
    /// The states of `order` in the order events of a stream's text, each state once (matched fixes repeat one).
    private static func states(_ text: String, _ order: String) -> [String] {
        let views = text.components(separatedBy: "\n").filter { $0.hasPrefix("data: {") && $0.contains(#""id":"\#(order)""#) }
        let states = views.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])?["state"] as? String
        }
        return states.enumerated().filter { $0.offset == 0 || states[$0.offset - 1] != $0.element }.map(\.element)
    }

    /// Created and confirmed by the operator's commands (other processes: the bus tells the server), picked up, driven
    /// by a synthetic Dasher's fixes until nearby and dropped off over HTTP: the customer's stream follows every
    /// state, and deleting the customer's account takes the order from the cluster. The customer is on a second
    /// replica (on the first one's clock): the Dasher's fixes reach their stream and tracking map through the bus.
    @Test func anOrderOnRedisMovesThroughEveryStateAndItsCustomersStreamFollowsIt() async throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let started = Date()
        let server = try ServerFixture(storeURL: cluster.url, serveOptions: ["--clock", RedisFaultTests.sceneClock])
        let sameClock = ISO8601DateFormatter().date(from: RedisFaultTests.sceneClock)!.addingTimeInterval(Date().timeIntervalSince(started))
        let other = try ServerFixture(storeURL: cluster.url, serveOptions: ["--clock", ISO8601DateFormatter().string(from: sameClock)])
        let (customer, dasher, order) = ("cust", "dash", "redis-order")
        let (store, home) = ("40.6795,-73.9810", "40.67015,-73.98549")
        for id in [customer, dasher] { _ = try server.operate("users", "add", id, "--name", id) }
        let (customerToken, dasherToken) = (try server.operate("users", "token", customer), try server.operate("users", "token", dasher))
        let events = try EventStream(server: other, token: customerToken)
        #expect(events.read(until: "event: ready", timeout: 60))
        _ = try server.operate("orders", "create", order, "--customer", customer, "--dasher", dasher, "--merchant", "Lucia's", "--items", "Pie",
                               "--from", store, "--to", home)
        _ = try server.operate("orders", "confirm", order)
        #expect(events.read(timeout: 60) { Self.states($0, order) == ["confirming", "preparing"] }, "\(events.received)")

        let path = "/v1/me/orders/\(order)"
        let picked = try await server.fetch(path + "/pickup", method: "POST", token: dasherToken)
        #expect(picked.0 == 200)
        let entered = try #require((try JSONSerialization.jsonObject(with: picked.2) as? [String: Any])?["entered"] as? [String: String])
        let pickup = try #require(ISO8601DateFormatter().date(from: entered["heading"] ?? ""))
        let route = try #require(try JSONSerialization.jsonObject(with: Data(server.operate("orders", "route", "--from", store, "--to", home).utf8)) as? [String: Any])
        let line = try #require((route["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        let length = try #require((route["properties"] as? [String: Double])?["lengthMeters"])
        let fixes = RouteWalk.along(line, every: length / 15)
        for (i, fix) in fixes.enumerated() {
            let at = ISO8601DateFormatter().string(from: pickup.addingTimeInterval(5 * Double(i - fixes.count)))
            let body = Data(#"{"lat":\#(fix.lat),"lon":\#(fix.lon),"accuracyMeters":8,"at":"\#(at)"}"#.utf8)
            #expect(try await server.fetch("/v1/me/location", method: "PUT", body: body, token: dasherToken).0 == 204)
        }
        #expect(events.read(until: #""state":"nearby""#, timeout: 120), "\(events.received)")
        let tracked = try JSONSerialization.jsonObject(with: try await other.fetch(path + "/layout.json", token: customerToken).2) as? [String: Any]
        #expect(tracked?["dasher"] is [String: Any], "the other replica's tracking map has the Dasher: \(String(describing: tracked))")
        let dropped = try await server.fetch(path + "/dropoff", method: "POST", token: dasherToken)
        #expect(dropped.0 == 200)
        #expect(events.read(until: "event: order\ndata: " + String(decoding: dropped.2, as: UTF8.self), timeout: 30), "\(events.received)")
        #expect(Self.states(events.received, order) == ["confirming", "preparing", "heading", "nearby", "complete"], "\(events.received)")
        #expect(events.received.contains("remainingMeters"), "the customer's stream on the other replica had the Dasher's matched position")
        #expect(try await server.fetch(path, token: customerToken).2 == dropped.2, "the customer reads the order as the Dasher left it")

        #expect(try await server.fetch("/v1/me", method: "DELETE", token: customerToken).0 == 204)
        #expect(try await server.fetch(path, token: dasherToken).0 == 404, "the deleted customer's order is gone, for its Dasher too")
    }
}
