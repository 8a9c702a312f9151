import Foundation
import LiveMap
import Orders

/// `/v1/me/orders/{id}`: an order as its customer or its Dasher reads it, and the Dasher's pickup and drop-off.
/// Anyone else, and any id the store does not hold, gets the same 404, byte for byte.
extension MapAPI {
    /// The orders of the live store; nil on a store that keeps none (Redis Cluster, so far), where no order exists.
    var orderBook: OrderBook? { (live.store as? SQLiteLiveStore).map(OrderBook.init) }

    /// The one answer for an order the caller may not read or that does not exist.
    static let noOrder = json(404, ["error": "no such order of yours"])

    /// What `me` may read of order `id`, if anything.
    private func readable(_ id: String, by me: PersonID) throws -> Order? {
        guard let orderID = try? OrderID(id), let order = try orderBook?.order(orderID), DasherRule.mayRead(me, order) else { return nil }
        return order
    }

    /// `GET /v1/me/orders/{id}`: the order's store, items, state and the server time it entered each state.
    func getOrder(_ me: PersonID, _ id: String) throws -> HTTPResponse {
        guard let order = try readable(id, by: me) else { return Self.noOrder }
        return HTTPResponse(status: 200, contentType: "application/json", body: try Self.encoded(OrderView(order)))
    }

    /// `POST /v1/me/orders/{id}/pickup|dropoff`: the order's Dasher moves it and its customer's streams are told;
    /// the customer is told only the Dasher does, an event out of turn is 409 naming the state, and neither
    /// changes anything.
    func moveOrder(_ me: PersonID, _ id: String, _ action: String) throws -> HTTPResponse {
        guard let order = try readable(id, by: me), let book = orderBook else { return Self.noOrder }
        guard me == order.dasher else { return Self.json(403, ["error": "only the order's Dasher may \(action) it"]) }
        let event: OrderEvent = action == "pickup" ? .pickup : .dropoff
        let moved = try book.apply(event, to: order.id, at: clock())
        let body = try Self.encoded(OrderView(moved))
        events.orderChanged(String(decoding: body, as: UTF8.self), for: moved.customer)
        return HTTPResponse(status: 200, contentType: "application/json", body: body)
    }

    private static func encoded(_ view: OrderView) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Array(try encoder.encode(view))
    }
}

/// An order as its customer and its Dasher read it: never the other party's id or position.
struct OrderView: Encodable {
    let id, store, state: String
    let items: [String]
    let entered: [String: Date]

    init(_ order: Order) {
        id = order.id.rawValue
        store = order.storeName
        state = order.state.rawValue
        items = order.items
        entered = Dictionary(uniqueKeysWithValues: order.entered.map { ($0.key.rawValue, $0.value) })
    }
}
