import Foundation
import LiveMap

/// Delivery orders on Redis Cluster (`RedisKeys.order`): the order in its own slot, written and moved by scripts on
/// that one key, each party's index written first (as asks are), so an order is never kept without the indexes that
/// deleting either account reads. Every write waits for a replica (`WAIT 1`), so an acknowledged order or move
/// survives a master's failover; a write whose answer was lost is not sent twice (`RedisCluster.run`), so a retried
/// move never applies twice. Each script's write is announced on its slot's channel in the same pipeline, as every
/// write is: a script that changed nothing (an id taken, a move that lost a race) is announced too, and whoever
/// hears it reads the order as it is, which its customer was already told.
extension RedisLiveStore: OrderStore {
    public func addOrder(_ order: OrderRecord) throws -> Bool {
        let parties = [order.customer, order.dasher]
        let found = try read([["EXISTS", RedisKeys.order(order.id)]] + parties.map { ["EXISTS", RedisKeys.person($0)] })
        if let missing = zip(parties, found.dropFirst()).first(where: { $0.1.integer != 1 }) { throw LiveMapError.notFound(id: missing.0.rawValue) }
        guard found[0].integer != 1 else { return false }
        try write(parties.map { ["SADD", RedisKeys.orders($0), order.id] })
        let notice = LiveBusMessage.order(OrderNotice(order: order.id, customer: order.customer))
        guard try write([["EVAL", RedisKeys.addOrderScript, "1", RedisKeys.order(order.id)] + RedisKeys.values(order)],
                        announcing: [notice])[0].integer == 1 else {
            try dropIndexes(of: order, unlessIn: self.order(order.id))
            return false
        }
        // An account deleted while the order was written may have missed its index: the order goes with it.
        let still = try read(parties.map { ["EXISTS", RedisKeys.person($0)] })
        if let gone = zip(parties, still).first(where: { $0.1.integer != 1 }) {
            try write([["DEL", RedisKeys.order(order.id)]] + parties.map { ["SREM", RedisKeys.orders($0), order.id] })
            throw LiveMapError.notFound(id: gone.0.rawValue)
        }
        return true
    }

    public func order(_ id: String) throws -> OrderRecord? {
        RedisKeys.order(id, try read([["HMGET", RedisKeys.order(id)] + RedisKeys.orderFields])[0].elements)
    }

    public func orders(ofDasher dasher: PersonID, in states: [String]) throws -> [OrderRecord] {
        let ids = try read([["SMEMBERS", RedisKeys.orders(dasher)]])[0].elements.compactMap(\.text).sorted()
        let replies = try read(ids.map { ["HMGET", RedisKeys.order($0)] + RedisKeys.orderFields })
        return zip(ids, replies).compactMap { id, reply in RedisKeys.order(id, reply.elements) }
            .filter { $0.dasher == dasher && states.contains($0.state) }
    }

    public func updateOrder(_ order: OrderRecord, expecting expected: String) throws -> Bool {
        try write([["EVAL", RedisKeys.moveOrderScript, "1", RedisKeys.order(order.id), expected, order.state, RedisKeys.entered(order)]],
                  announcing: [.order(OrderNotice(order: order.id, customer: order.customer))])[0].integer == 1
    }

    /// Deletes every order `id` is the customer or the Dasher of, and their index entries on both sides (part of
    /// removing the person).
    func removeOrders(of id: PersonID) throws {
        let ids = try read([["SMEMBERS", RedisKeys.orders(id)]])[0].elements.compactMap(\.text)
        let found = try read(ids.map { ["HMGET", RedisKeys.order($0)] + RedisKeys.orderFields })
        var commands: [[String]] = []
        for (orderID, reply) in zip(ids, found) {
            guard let order = RedisKeys.order(orderID, reply.elements), order.customer == id || order.dasher == id else { continue }
            commands += [["DEL", RedisKeys.order(orderID)], ["SREM", RedisKeys.orders(order.customer == id ? order.dasher : order.customer), orderID]]
        }
        try write(commands + [["DEL", RedisKeys.orders(id)]])
    }

    /// Takes `order`'s id out of its parties' indexes, but for the parties of `kept` (the order that holds the id).
    private func dropIndexes(of order: OrderRecord, unlessIn kept: OrderRecord?) throws {
        let keep = Set([kept?.customer, kept?.dasher].compactMap { $0 })
        let commands = [order.customer, order.dasher].filter { !keep.contains($0) }.map { ["SREM", RedisKeys.orders($0), order.id] }
        if !commands.isEmpty { try write(commands) }
    }
}
