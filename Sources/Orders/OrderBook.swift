import Foundation
import LiveMap

/// Orders kept in the live store (its SQLite file): created, read back, and moved through their life one event
/// at a time. A move is written only if nobody moved the order since it was read, so two events racing on one
/// order never both apply; the loser is refused as any event out of turn is, naming the state it found.
public struct OrderBook: Sendable {
    private let store: SQLiteLiveStore

    /// The orders of `store`.
    public init(store: SQLiteLiveStore) {
        self.store = store
    }

    /// Keeps a new order; an id already taken is a conflict naming it, and an unknown customer or Dasher is
    /// `notFound` naming them; either way nothing changes.
    public func create(_ order: Order) throws {
        guard try store.addOrder(Self.record(order)) else { throw LiveMapError.conflict(message: "order \(order.id) exists") }
    }

    /// The order `id`, or nil when there is none.
    public func order(_ id: OrderID) throws -> Order? {
        try store.order(id.rawValue).flatMap(Self.order)
    }

    /// Applies `event` to order `id` at server time `now` and answers the order as it is now; an event out of
    /// turn is a conflict naming the state, and changes nothing.
    @discardableResult
    public func apply(_ event: OrderEvent, to id: OrderID, at now: Date) throws -> Order {
        guard var order = try order(id) else { throw OrderBookError.unknownOrder(id) }
        let before = order.state
        try order.apply(event, at: now)
        guard try store.updateOrder(Self.record(order), expecting: before.rawValue) else {
            let state = try self.order(id)?.state.rawValue ?? "gone"
            throw LiveMapError.conflict(message: "order \(id) is \(state); \(event.rawValue) found it moved on")
        }
        return order
    }

    static func record(_ order: Order) -> OrderRecord {
        OrderRecord(id: order.id.rawValue, storeName: order.storeName, customer: order.customer, dasher: order.dasher, items: order.items,
                    state: order.state.rawValue, entered: Dictionary(uniqueKeysWithValues: order.entered.map { ($0.key.rawValue, $0.value) }))
    }

    static func order(_ record: OrderRecord) -> Order? {
        guard let id = try? OrderID(record.id), let state = OrderState(rawValue: record.state) else { return nil }
        let entered = Dictionary(uniqueKeysWithValues: record.entered.compactMap { key, value in OrderState(rawValue: key).map { ($0, value) } })
        return Order(id: id, storeName: record.storeName, customer: record.customer, dasher: record.dasher, items: record.items,
                     state: state, entered: entered)
    }
}

/// An order id the store does not hold.
public enum OrderBookError: Error, Equatable, CustomStringConvertible {
    case unknownOrder(OrderID)

    public var description: String {
        switch self {
        case .unknownOrder(let id): return "no order \"\(id)\" in the live store"
        }
    }
}
