import Foundation
import ServerTestSupport
import Testing

/// `/v1/me/orders/{id}` over HTTP: the customer and the Dasher read their order, only the Dasher moves it, and
/// nobody else (the Dasher's friends included) learns that it exists.
@Suite struct OrderHTTPTests {
    private var server: ServerFixture { get throws { try ServerFixture.shared.get() } }

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
        _ = try server.operate("orders", "create", order, "--customer", customer, "--dasher", dasher, "--merchant", "Lucia's", "--items", "Margherita pie")
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
        let followed = "event: order\ndata: " + String(decoding: picked.2, as: UTF8.self) + "\n\n"
            + "event: order\ndata: " + String(decoding: dropped.2, as: UTF8.self) + "\n\n"
        #expect(customerEvents.read(until: followed, timeout: 5), "\(customerEvents.received)")
        // The Dasher then shares their location with their friend: that reaches the friend's stream after anything
        // the order would have sent there (events are sent in turn), and the order sent nothing before it.
        #expect(try await server.fetch("/v1/me/sharing", method: "PUT", body: Data(#"{"ghost":"off"}"#.utf8), token: dasherToken).0 == 200)
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: Data(#"{"lat":40.7152,"lon":-73.9661,"accuracyMeters":8}"#.utf8),
                                       token: dasherToken).0 == 204)
        #expect(friendEvents.read(until: "event: appear", timeout: 5))
        #expect(!friendEvents.received.contains("event: order") && !friendEvents.received.contains(order), "\(friendEvents.received)")
        #expect(!customerEvents.received.contains("event: appear"), "the customer is no friend of the Dasher's")
    }
}
