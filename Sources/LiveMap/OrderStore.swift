import Foundation

/// Where delivery orders are kept (the live store's SQLite file, or Redis Cluster): what the `Orders` module's
/// `OrderBook` needs and no more. Implementations keep what they are given (the book validates), are durable (a
/// returned write survives a crash, or on Redis Cluster a master's failover), tell their change feed of every
/// order added or moved (`LiveBusMessage.order`, so other processes tell its customer's streams), and lose an
/// order with its customer's or Dasher's account. The order tests (`OrderBookTests`, `LiveDrivesTests`) run on each.
public protocol OrderStore: AnyObject, Sendable {
    /// Adds `order`; false when its id is taken (nothing changes). An unknown customer or Dasher is `notFound`
    /// naming them, and adds nothing.
    func addOrder(_ order: OrderRecord) throws -> Bool
    /// The order `id`, or nil.
    func order(_ id: String) throws -> OrderRecord?
    /// The orders `dasher` delivers that are in one of `states`, by id.
    func orders(ofDasher dasher: PersonID, in states: [String]) throws -> [OrderRecord]
    /// Writes `order`'s state and entry times only if the stored order is still in state `expected`, in one atomic
    /// compare-and-set (so two writers never both move it from one state); false, changing nothing, when it is not
    /// (or is gone).
    func updateOrder(_ order: OrderRecord, expecting expected: String) throws -> Bool
}

extension SQLiteLiveStore: OrderStore {}

extension LiveMapService {
    /// The orders of the service's store, whether or not a view stands in front of it (nil on a store that keeps none).
    public var orderStore: (any OrderStore)? {
        (store as? any OrderStore) ?? ((store as? LiveView)?.store as? any OrderStore)
    }
}
