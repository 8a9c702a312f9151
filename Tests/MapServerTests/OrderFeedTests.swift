import Foundation
import ServerTestSupport
import Testing

/// Orders moved outside the server that serves their customer (the operator's `orders …` on the same SQLite file,
/// a second server on it) reach the customer's open stream through the store's change log, as the server's own
/// moves do, each as `GET /v1/me/orders/{id}` then answers it; nobody else's stream hears of them.
@Suite struct OrderFeedTests {
    /// The order events of `order` the stream delivered, their data in turn.
    private static func events(_ text: String, _ order: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix("data: {") && $0.contains(#""id":"\#(order)""#) }.map { String($0.dropFirst(6)) }
    }

    @Test func ordersMovedByTheOperatorAndASecondServerReachTheCustomersStream() async throws {
        let first = try ServerFixture()
        let path: String = try #require(first.databasePath)
        let second = try ServerFixture(database: path)
        let tag = UUID().uuidString.prefix(6).lowercased()
        let (customer, dasher, friend, order) = ("c-\(tag)", "d-\(tag)", "f-\(tag)", "feed-\(tag)")
        for id in [customer, dasher, friend] { _ = try first.operate("users", "add", id, "--name", id) }
        _ = try first.operate("friends", "add", customer, friend)
        let customerToken = try first.operate("users", "token", customer)
        let (customerEvents, friendEvents) = (try EventStream(server: first, token: customerToken),
                                              try EventStream(server: first, token: try first.operate("users", "token", friend)))
        #expect(customerEvents.read(until: "event: ready", timeout: 120) && friendEvents.read(until: "event: ready", timeout: 120))

        // The operator's command line, on the same file: each state reaches the stream as the order now reads.
        _ = try first.operate("orders", "create", order, "--customer", customer, "--dasher", dasher, "--merchant", "Lucia's", "--items", "Pie",
                              "--from", OrderHTTPTests.store, "--to", OrderHTTPTests.home)
        #expect(customerEvents.read(timeout: 60) { Self.events($0, order).count == 1 }, "\(customerEvents.received)")
        _ = try first.operate("orders", "confirm", order)
        #expect(customerEvents.read(timeout: 60) { Self.events($0, order).count == 2 })
        let preparing = try await first.fetch("/v1/me/orders/\(order)", token: customerToken).2
        #expect(Self.events(customerEvents.received, order).map { $0.contains(#""state":"confirming""#) } == [true, false])
        #expect(Self.events(customerEvents.received, order).last == String(decoding: preparing, as: UTF8.self))

        // The Dasher picks it up through the second server: the first server's stream hears it.
        let picked = try await second.fetch("/v1/me/orders/\(order)/pickup", method: "POST", token: try first.operate("users", "token", dasher))
        #expect(picked.0 == 200)
        #expect(customerEvents.read(timeout: 60) { Self.events($0, order).count == 3 })
        #expect(Self.events(customerEvents.received, order).last == String(decoding: picked.2, as: UTF8.self))

        _ = try first.operate("orders", "cancel", order)
        #expect(customerEvents.read(timeout: 60) { Self.events($0, order).count == 4 })
        #expect(Self.events(customerEvents.received, order).last?.contains(#""state":"cancelled""#) == true)
        #expect(!friendEvents.received.contains("event: order") && !friendEvents.received.contains(order), "\(friendEvents.received)")
    }
}
