import Foundation
import GeoCore
import LiveMap

/// An order as the live store keeps it: the order and where its drive starts (the store) and ends (the door).
public struct StoredOrder: Sendable, Equatable {
    public let order: Order
    public let from: Coordinate, to: Coordinate

    /// `order`, driven from `from` to `to`.
    public init(_ order: Order, from: Coordinate, to: Coordinate) {
        self.order = order
        self.from = from
        self.to = to
    }
}

/// Orders kept in the live store (its SQLite file or Redis Cluster): created, read back, and moved through their
/// life one event at a time. A move is written only if nobody moved the order since it was read (the store's
/// compare-and-set), so two events racing on one order never both apply; the loser is refused as any event out of
/// turn is, naming the state it found.
public struct OrderBook: Sendable {
    private let store: any OrderStore

    /// The orders of `store`.
    public init(store: any OrderStore) {
        self.store = store
    }

    /// Keeps a new order; an id already taken is a conflict naming it, and an unknown customer or Dasher is
    /// `notFound` naming them; either way nothing changes.
    public func create(_ stored: StoredOrder) throws {
        guard try store.addOrder(Self.record(stored)) else { throw LiveMapError.conflict(message: "order \(stored.order.id) exists") }
    }

    /// The order `id`, or nil when there is none.
    public func order(_ id: OrderID) throws -> StoredOrder? {
        try store.order(id.rawValue).flatMap(Self.stored)
    }

    /// The orders `dasher` is driving now (picked up, not yet dropped off), by id.
    public func driving(by dasher: PersonID) throws -> [StoredOrder] {
        try store.orders(ofDasher: dasher, in: OrderState.allCases.filter(\.isDriving).map(\.rawValue)).compactMap(Self.stored)
    }

    /// Applies `event` to order `id` at server time `now` and answers the order as it is now; an event out of
    /// turn is a conflict naming the state, and changes nothing.
    @discardableResult
    public func apply(_ event: OrderEvent, to id: OrderID, at now: Date) throws -> StoredOrder {
        guard let stored = try order(id) else { throw OrderBookError.unknownOrder(id) }
        var order = stored.order
        try order.apply(event, at: now)
        let moved = StoredOrder(order, from: stored.from, to: stored.to)
        guard try store.updateOrder(Self.record(moved), expecting: stored.order.state.rawValue) else {
            let state = try self.order(id)?.order.state.rawValue ?? "gone"
            throw LiveMapError.conflict(message: "order \(id) is \(state); \(event.rawValue) found it moved on")
        }
        return moved
    }

    static func record(_ stored: StoredOrder) -> OrderRecord {
        let order = stored.order
        return OrderRecord(id: order.id.rawValue, storeName: order.storeName, customer: order.customer, dasher: order.dasher, items: order.items,
                           from: stored.from, to: stored.to, state: order.state.rawValue,
                           entered: Dictionary(uniqueKeysWithValues: order.entered.map { ($0.key.rawValue, $0.value) }))
    }

    static func stored(_ record: OrderRecord) -> StoredOrder? {
        guard let id = try? OrderID(record.id), let state = OrderState(rawValue: record.state) else { return nil }
        let entered = Dictionary(uniqueKeysWithValues: record.entered.compactMap { key, value in OrderState(rawValue: key).map { ($0, value) } })
        return StoredOrder(Order(id: id, storeName: record.storeName, customer: record.customer, dasher: record.dasher, items: record.items,
                                 state: state, entered: entered), from: record.from, to: record.to)
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
