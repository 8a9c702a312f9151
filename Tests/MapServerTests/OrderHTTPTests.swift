import Foundation
import ServerTestSupport
import Testing

/// `/v1/me/orders/{id}` over HTTP: the customer and the Dasher read their order, only the Dasher moves it, and
/// nobody else (the Dasher's friends included) learns that it exists.
@Suite struct OrderHTTPTests {
    private var server: ServerFixture { get throws { try ServerFixture.shared.get() } }
    /// Lucia's and the home of the delivery seed.
    static let store = "40.6795,-73.9810", home = "40.67015,-73.98549"

    private func fields(_ body: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    @Test func theDasherMovesTheOrderItsCustomerReadsItAndNobodyElseSeesIt() async throws {
        let server = try self.server
        let tag = UUID().uuidString.prefix(6).lowercased()
        let (customer, dasher, friend, order) = ("cust-\(tag)", "dash-\(tag)", "pal-\(tag)", "order-\(tag)")
        for id in [customer, dasher, friend] { _ = try server.operate("users", "add", id, "--name", id) }
        _ = try server.operate("friends", "add", dasher, friend)
        let (customerToken, dasherToken, friendToken) = (try server.operate("users", "token", customer),
                                                         try server.operate("users", "token", dasher), try server.operate("users", "token", friend))
        _ = try server.operate("orders", "create", order, "--customer", customer, "--dasher", dasher, "--merchant", "Lucia's", "--items", "Margherita pie",
                               "--from", Self.store, "--to", Self.home)
        _ = try server.operate("orders", "confirm", order)
        let path = "/v1/me/orders/\(order)"

        let (status, _, body) = try await server.fetch(path, token: customerToken)
        let read = try fields(body)
        #expect(status == 200 && read["state"] as? String == "preparing" && read["store"] as? String == "Lucia's")
        #expect((read["entered"] as? [String: String])?.keys.sorted() == ["confirming", "preparing"])
        #expect(try await server.fetch(path, token: dasherToken).2 == body, "the Dasher reads what the customer reads")

        // Out of turn, or by the customer: refused, naming why, and nothing changes.
        let early = try await server.fetch(path + "/dropoff", method: "POST", token: dasherToken)
        #expect(early.0 == 409 && String(decoding: early.2, as: UTF8.self).contains("is preparing"))
        #expect(try await server.fetch(path + "/pickup", method: "POST", token: customerToken).0 == 403)
        #expect(try await server.fetch(path, token: customerToken).2 == body)

        // Anyone else, the Dasher's friend included, gets what an order that does not exist gets, byte for byte.
        let unknown = try await server.fetch("/v1/me/orders/no-such-\(tag)", token: friendToken)
        #expect(unknown.0 == 404)
        for (method, suffix) in [("GET", ""), ("POST", "/pickup"), ("POST", "/dropoff")] {
            let theirs = try await server.fetch(path + suffix, method: method, token: friendToken)
            let none = try await server.fetch("/v1/me/orders/no-such-\(tag)" + suffix, method: method, token: friendToken)
            #expect(theirs.0 == none.0 && theirs.2 == none.2 && theirs.2 == unknown.2, "\(method) \(suffix)")
        }
        #expect(try await server.fetch(path + "/pickup", method: "POST", token: friendToken).0 == 404)

        let customerEvents = try EventStream(server: server, token: customerToken)
        let friendEvents = try EventStream(server: server, token: friendToken)
        #expect(customerEvents.read(until: "event: ready") && friendEvents.read(until: "event: ready"))
        let picked = try await server.fetch(path + "/pickup", method: "POST", token: dasherToken)
        #expect(try picked.0 == 200 && fields(picked.2)["state"] as? String == "heading")
        #expect(try await server.fetch(path, token: customerToken).2 == picked.2, "the customer reads the order as the Dasher left it")
        let dropped = try await server.fetch(path + "/dropoff", method: "POST", token: dasherToken)
        #expect(try dropped.0 == 200 && fields(dropped.2)["state"] as? String == "complete")
        #expect(try (fields(dropped.2)["entered"] as? [String: String])?.keys.sorted() == ["complete", "confirming", "heading", "preparing"])

        // The customer's stream follows each state, with the order as GET answers it.
        // In turn, with nothing but the stream's keep-alive comments between them (a slow run sends those).
        let first = "event: order\ndata: " + String(decoding: picked.2, as: UTF8.self) + "\n\n"
        let second = "event: order\ndata: " + String(decoding: dropped.2, as: UTF8.self) + "\n\n"
        #expect(customerEvents.read(until: second, timeout: 30), "\(customerEvents.received)")
        let followed = customerEvents.received.replacingOccurrences(of: ": keep-alive\n\n", with: "")
        #expect(followed.contains(first + second), "\(customerEvents.received)")
        // The Dasher then shares their location with their friend: that reaches the friend's stream after anything
        // the order would have sent there (events are sent in turn), and the order sent nothing before it.
        #expect(try await server.fetch("/v1/me/sharing", method: "PUT", body: Data(#"{"ghost":"off"}"#.utf8), token: dasherToken).0 == 200)
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: Data(#"{"lat":40.7152,"lon":-73.9661,"accuracyMeters":8}"#.utf8),
                                       token: dasherToken).0 == 204)
        #expect(friendEvents.read(until: "event: appear", timeout: 30))
        #expect(!friendEvents.received.contains("event: order") && !friendEvents.received.contains(order), "\(friendEvents.received)")
        #expect(!customerEvents.received.contains("event: appear"), "the customer is no friend of the Dasher's")
    }

    /// A new order picked up by its Dasher: the customer's, the Dasher's and the Dasher's friend's tokens, and the
    /// server's clock at the pickup (the demo server keeps the scene's).
    private func pickedUp(_ server: ServerFixture, _ order: String) async throws -> (customer: String, dasher: String, friend: String, at: Date) {
        let (customer, dasher, friend) = ("c-\(order)", "d-\(order)", "f-\(order)")
        for id in [customer, dasher, friend] { _ = try server.operate("users", "add", id, "--name", id) }
        _ = try server.operate("friends", "add", dasher, friend)
        _ = try server.operate("orders", "create", order, "--customer", customer, "--dasher", dasher, "--merchant", "Lucia's", "--items", "Pie",
                               "--from", Self.store, "--to", Self.home)
        _ = try server.operate("orders", "confirm", order)
        let tokens = (try server.operate("users", "token", customer), try server.operate("users", "token", dasher), try server.operate("users", "token", friend))
        let picked = try await server.fetch("/v1/me/orders/\(order)/pickup", method: "POST", token: tokens.1)
        #expect(picked.0 == 200)
        let entered = try #require(try fields(picked.2)["entered"] as? [String: String])
        return (tokens.0, tokens.1, tokens.2, try #require(ISO8601DateFormatter().date(from: entered["heading"] ?? "")))
    }

    @Test func aDashersFixesMoveTheOrderToNearbyAndOnlyItsCustomerSeesWhere() async throws {
        let server = try self.server
        let order = "drive-\(UUID().uuidString.prefix(6).lowercased())"
        let customerEvents: EventStream, friendEvents: EventStream
        let (customer, dasher, friend, pickup) = try await pickedUp(server, order)
        customerEvents = try EventStream(server: server, token: customer)
        friendEvents = try EventStream(server: server, token: friend)
        #expect(customerEvents.read(until: "event: ready") && friendEvents.read(until: "event: ready"))
        // The synthetic Dasher drives the planned route (the operator's `orders route` between the same places),
        // a fix every 5 s, within the location rate's burst.
        let route = try #require(try JSONSerialization.jsonObject(with: Data(server.operate("orders", "route", "--from", Self.store, "--to", Self.home).utf8)) as? [String: Any])
        let line = try #require((route["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        let length = try #require((route["properties"] as? [String: Double])?["lengthMeters"])
        let fixes = RouteWalk.along(line, every: length / 15)
        let start = pickup.addingTimeInterval(-5 * Double(fixes.count))
        for (i, fix) in fixes.enumerated() {
            let at = ISO8601DateFormatter().string(from: start.addingTimeInterval(5 * Double(i)))
            let body = Data(#"{"lat":\#(fix.lat),"lon":\#(fix.lon),"accuracyMeters":8,"at":"\#(at)"}"#.utf8)
            #expect(try await server.fetch("/v1/me/location", method: "PUT", body: body, token: dasher).0 == 204)
        }
        #expect(customerEvents.read(until: #""state":"nearby""#, timeout: 120), "\(customerEvents.received)")
        let views = try customerEvents.received.components(separatedBy: "\n").filter { $0.hasPrefix("data: {\"") && $0.contains(#""id":"\#(order)""#) }
            .map { try fields(Data($0.dropFirst(6).utf8)) }
        let positions = views.compactMap { $0["dasher"] as? [String: Double] }
        let remaining = views.compactMap { $0["remainingMeters"] as? Double }
        #expect(positions.count >= 10 && remaining.count == positions.count && views.allSatisfy { $0["arrives"] == nil || ($0["arrives"] as? String)?.hasPrefix("Arrives ") == true })
        #expect(try #require(remaining.last) < 0.25 * length && remaining.first! > remaining.last!, "\(remaining)")
        // The customer reads where the Dasher is; the Dasher's own answer and everyone else's have no position.
        let read = try fields(try await server.fetch("/v1/me/orders/\(order)", token: customer).2)
        #expect(read["state"] as? String == "nearby" && read["dasher"] != nil && read["remainingMeters"] != nil)
        let own = try fields(try await server.fetch("/v1/me/orders/\(order)", token: dasher).2)
        #expect(own["state"] as? String == "nearby" && own["dasher"] == nil && own["arrives"] == nil)
        #expect(try await server.fetch("/v1/me/orders/\(order)", token: friend).0 == 404)
        // Dropped off: the position is gone from the customer's answer and the stream's last word.
        #expect(try await server.fetch("/v1/me/orders/\(order)/dropoff", method: "POST", token: dasher).0 == 200)
        #expect(customerEvents.read(until: #""state":"complete""#, timeout: 5))
        let done = try fields(try await server.fetch("/v1/me/orders/\(order)", token: customer).2)
        #expect(done["state"] as? String == "complete" && done["dasher"] == nil)
        // The Dasher's friend: their stream heard nothing of it (the Dasher shares nothing: new people are in Ghost Mode).
        #expect(try await server.fetch("/v1/me/sharing", method: "PUT", body: Data(#"{"ghost":"off"}"#.utf8), token: dasher).0 == 200)
        let last = try #require(fixes.last)
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: Data(#"{"lat":\#(last.lat),"lon":\#(last.lon),"accuracyMeters":8}"#.utf8),
                                       token: dasher).0 == 204)
        #expect(friendEvents.read(until: "event: appear", timeout: 30))
        #expect(!friendEvents.received.contains("event: order") && !friendEvents.received.contains(#""id":"\#(order)""#)
                && !friendEvents.received.contains("remainingMeters"), "\(friendEvents.received)")
    }
}
