import Foundation
import GeoCore
import LiveMap
import MapEngine
import Orders
import Routing

/// `/v1/me/orders/{id}`: an order as its customer or its Dasher reads it, and the Dasher's pickup and drop-off.
/// Anyone else, and any id the store does not hold, gets the same 404, byte for byte.
extension MapAPI {
    /// The orders of the live store (SQLite or Redis Cluster); nil on a store that keeps none, where no order exists.
    var orderBook: OrderBook? { live.orderStore.map { OrderBook(store: $0) } }

    /// The one answer for an order the caller may not read or that does not exist.
    static let noOrder = json(404, ["error": "no such order of yours"])

    /// The drives of the live store's orders, on the streets of `engine`'s base map (whose cache file's hash is
    /// `baseMapData`) at `Data/routing/speeds.json`'s speeds: the network is built beside the server from its first
    /// need (an order heard of, a Dasher's fix for an order, a tracking map).
    static func drives(engine: MapEngine, live: LiveMapService, baseMapData: String) -> LiveDrives? {
        guard let store = live.orderStore else { return nil }
        let (streets, speeds) = (engine.baseMap.store.streets, engine.paths.streetSpeedsFile)
        let network = StreetNetwork.shared(baseMapData + fingerprint(speeds)) { try Router(streets: streets, speedsFile: speeds) }
        let drives = LiveDrives(book: OrderBook(store: store), network: network)
        // A deleted account's orders left the store with it; their drives leave memory too.
        live.observe { change in
            if case .removed(let person) = change { drives.forget(person) }
        }
        return drives
    }

    /// Orders placed or moved by another process (the operator's `orders …`, a second server on the same store),
    /// heard through the store's change log (SQLite) or its sharded pub/sub (Redis Cluster), reach their customer's
    /// streams as this server's own moves do, and a finished order's drive is forgotten here too. A Dasher's fix
    /// kept through another server goes into this server's drives as well, so a customer whose stream or map is here
    /// sees the matched position and ETA wherever the Dasher's phone sent it.
    static func followOrders(live: LiveMapService, drives: LiveDrives?, events: EventHub, clock: @escaping @Sendable () -> Date) {
        guard let store = live.orderStore else { return }
        let book = OrderBook(store: store)
        live.observeOrders { notice in
            drives?.prepare()
            guard let id = try? OrderID(notice.order), let order = try? book.order(id)?.order else { return }
            if order.state.isFinal { drives?.end(order.id) }
            guard let body = try? encoded(OrderView(order, drives?.view(of: order))) else { return }
            events.orderChanged(order, String(decoding: body, as: UTF8.self))
        }
        live.observeFixes { person, fix in dasherMoved(person, fix, at: clock(), drives: drives, events: events) }
    }

    /// A fix `me` sent, taken into the drive of each order they are driving; its customer's streams are told.
    /// The fix is already kept, so what goes wrong there costs the customer one update, not the Dasher their 204.
    static func dasherMoved(_ me: PersonID, _ fix: LocationFix, at now: Date, drives: LiveDrives?, events: EventHub) {
        drives?.add(fix, of: me, at: now) { moved in
            for (order, view) in moved {
                guard let body = try? encoded(OrderView(order, view)) else { continue }
                events.orderChanged(order, String(decoding: body, as: UTF8.self))
            }
        }
    }

    /// What `me` may read of order `id`, if anything.
    private func readable(_ id: String, by me: PersonID) throws -> Order? {
        guard let orderID = try? OrderID(id), let order = try orderBook?.order(orderID)?.order, DasherRule.mayRead(me, order) else { return nil }
        return order
    }

    /// The order as `me` reads it: the Dasher's part (position, metres left, "Arrives h:mm") only for whom
    /// `DasherRule` shows it, and only from a matched fix.
    private func view(_ order: Order, for me: PersonID) -> OrderView {
        guard me == order.customer, let drives else { return OrderView(order, nil) }
        return OrderView(order, drives.view(of: order))
    }

    /// `GET /v1/me/orders/{id}`: the order's store, items, state and the server time it entered each state.
    func getOrder(_ me: PersonID, _ id: String) throws -> HTTPResponse {
        guard let order = try readable(id, by: me) else { return Self.noOrder }
        return HTTPResponse(status: 200, contentType: "application/json", body: try Self.encoded(view(order, for: me)))
    }

    /// `POST /v1/me/orders/{id}/pickup|dropoff`: the order's Dasher moves it and its customer's streams are told;
    /// the customer is told only the Dasher does, an event out of turn is 409 naming the state, and neither
    /// changes anything.
    func moveOrder(_ me: PersonID, _ id: String, _ action: String) throws -> HTTPResponse {
        guard let order = try readable(id, by: me), let book = orderBook else { return Self.noOrder }
        guard me == order.dasher else { return Self.json(403, ["error": "only the order's Dasher may \(action) it"]) }
        let event: OrderEvent = action == "pickup" ? .pickup : .dropoff
        let moved = try book.apply(event, to: order.id, at: clock()).order
        if moved.state.isFinal { drives?.end(moved.id) }
        events.orderChanged(moved, String(decoding: try Self.encoded(view(moved, for: moved.customer)), as: UTF8.self))
        return HTTPResponse(status: 200, contentType: "application/json", body: try Self.encoded(view(moved, for: me)))
    }

    static func encoded(_ view: OrderView) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Array(try encoder.encode(view))
    }
}

/// An order as its customer and its Dasher read it: never the other party's id; the Dasher's matched position,
/// the metres left and "Arrives h:mm" only for the customer, from pickup to drop-off (`DasherRule`).
struct OrderView: Encodable {
    let id, store, state: String
    let items: [String]
    let entered: [String: Date]
    let dasher: Coordinate?
    let remainingMeters: Double?
    let arrives: String?

    init(_ order: Order, _ customer: CustomerView?) {
        id = order.id.rawValue
        store = order.storeName
        state = order.state.rawValue
        items = order.items
        entered = Dictionary(uniqueKeysWithValues: order.entered.map { ($0.key.rawValue, $0.value) })
        dasher = customer?.dasher
        remainingMeters = customer?.remainingMeters
        arrives = customer?.arrives
    }
}
