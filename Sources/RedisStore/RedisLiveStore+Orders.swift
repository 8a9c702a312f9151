import Foundation
import LiveMap

/// Delivery orders on Redis Cluster (`RedisKeys.order`): the order in its own slot, written and moved by scripts on
/// that one key, the parties' indexes written first (as asks are), so an order is never kept, nor moved into a state,
/// without the index entries that deleting either account and the Dasher's drives read. Every write waits for a
/// replica (`WAIT 1`), so an acknowledged order or move survives a master's failover; a write whose answer was lost is
/// not sent twice (`RedisCluster.run`), so a retried move never applies twice. Each script's write is announced on its
/// slot's channel in the same pipeline, as every write is: a script that changed nothing (an id taken, a move that
/// lost a race) is announced too, and whoever hears it reads the order as it is, which its customer was already told.
extension RedisLiveStore: OrderStore {
    public func addOrder(_ order: OrderRecord) throws -> Bool {
        let parties = [order.customer, order.dasher]
        let found = try read([["EXISTS", RedisKeys.order(order.id)]] + parties.map { ["EXISTS", RedisKeys.person($0)] })
        if let missing = zip(parties, found.dropFirst()).first(where: { $0.1.integer != 1 }) { throw LiveMapError.notFound(id: missing.0.rawValue) }
        guard found[0].integer != 1 else { return false }
        try write(parties.map { ["SADD", RedisKeys.orders($0), order.id] } + indexing(order, in: order.state))
        let notice = LiveBusMessage.order(OrderNotice(order: order.id, customer: order.customer))
        guard try write([["EVAL", RedisKeys.addOrderScript, "1", RedisKeys.order(order.id)] + RedisKeys.values(order)],
                        announcing: [notice])[0].integer == 1 else {
            try dropIndexes(of: order, unlessIn: self.order(order.id))
            return false
        }
        // A party's account deleted meanwhile: if it was marked as going (or its key went) before this check, the order
        // goes here; if after, the deletion reads the index written above (`removeOrders` runs after the mark) and takes it.
        if let gone = try parties.first(where: { try goneOrGoing([$0]) }) {
            try write([["DEL", RedisKeys.order(order.id)]] + parties.map { ["SREM", RedisKeys.orders($0), order.id] })
            try unindex(order, in: order.state)
            throw LiveMapError.notFound(id: gone.rawValue)
        }
        return true
    }

    public func order(_ id: String) throws -> OrderRecord? {
        RedisKeys.order(id, try read([["HMGET", RedisKeys.order(id)] + RedisKeys.orderFields])[0].elements)
    }

    /// The union of the Dasher's sets of `states` (one slot, one command), each order then read and checked.
    public func orders(ofDasher dasher: PersonID, in states: [String]) throws -> [OrderRecord] {
        guard !states.isEmpty else { return [] }
        let ids = try read([["SUNION"] + states.map { RedisKeys.dashing(dasher, $0) }])[0].elements.compactMap(\.text).sorted()
        let replies = try read(ids.map { ["HMGET", RedisKeys.order($0)] + RedisKeys.orderFields })
        return zip(ids, replies).compactMap { id, reply in RedisKeys.order(id, reply.elements) }
            .filter { $0.dasher == dasher && states.contains($0.state) }
    }

    /// The Dasher's set of the new state gets the order before the move and the old one loses it after, so a reader
    /// of the Dasher's sets never misses it.
    public func updateOrder(_ order: OrderRecord, expecting expected: String) throws -> Bool {
        try write(indexing(order, in: order.state))
        let moved = try write([["EVAL", RedisKeys.moveOrderScript, "1", RedisKeys.order(order.id), expected, order.state, RedisKeys.entered(order)]],
                              announcing: [.order(OrderNotice(order: order.id, customer: order.customer))])[0].integer == 1
        if moved, expected != order.state { try write([["SREM", RedisKeys.dashing(order.dasher, expected), order.id]]) }
        // An order deleted with an account meanwhile: the entry just written is the last trace of it.
        if !moved, try self.order(order.id) == nil { try unindex(order, in: order.state) }
        return moved
    }

    /// Deletes every order `id` is the customer or the Dasher of, and their entries in the other party's indexes, and
    /// `id`'s own indexes (part of removing the person, after the person's key is gone: see `addOrder`).
    func removeOrders(of id: PersonID) throws {
        let own = try read([["SMEMBERS", RedisKeys.orders(id)], ["SMEMBERS", RedisKeys.dashingStates(id)]])
        let ids = own[0].elements.compactMap(\.text)
        let orders = zip(ids, try read(ids.map { ["HMGET", RedisKeys.order($0)] + RedisKeys.orderFields })).compactMap { orderID, reply in
            RedisKeys.order(orderID, reply.elements).flatMap { $0.customer == id || $0.dasher == id ? $0 : nil }
        }
        let dashers = Array(Set(orders.map(\.dasher).filter { $0 != id }))
        let theirStates = Dictionary(uniqueKeysWithValues: zip(dashers, try read(dashers.map { ["SMEMBERS", RedisKeys.dashingStates($0)] })))
        var commands: [[String]] = []
        for order in orders {
            commands += [["DEL", RedisKeys.order(order.id)], ["SREM", RedisKeys.orders(order.customer == id ? order.dasher : order.customer), order.id]]
            if order.dasher != id {
                commands += (theirStates[order.dasher]?.elements.compactMap(\.text) ?? []).map { ["SREM", RedisKeys.dashing(order.dasher, $0), order.id] }
            }
        }
        let states = own[1].elements.compactMap(\.text)
        try write(commands + ([RedisKeys.orders(id), RedisKeys.dashingStates(id)] + states.map { RedisKeys.dashing(id, $0) }).map { ["DEL", $0] })
    }

    /// The commands that put `order` in its Dasher's set of `state`.
    private func indexing(_ order: OrderRecord, in state: String) -> [[String]] {
        [["SADD", RedisKeys.dashingStates(order.dasher), state], ["SADD", RedisKeys.dashing(order.dasher, state), order.id]]
    }

    /// Takes `order` out of its Dasher's set of `state`, and the Dasher's list of states with it when the Dasher's
    /// account is gone (their other keys went with it).
    private func unindex(_ order: OrderRecord, in state: String) throws {
        let gone = try read([["EXISTS", RedisKeys.person(order.dasher)]])[0].integer != 1
        try write([["SREM", RedisKeys.dashing(order.dasher, state), order.id]] + (gone ? [["DEL", RedisKeys.dashingStates(order.dasher)]] : []))
    }

    /// Takes `order`'s id out of its parties' indexes, but for the parties of `kept` (the order that holds the id).
    private func dropIndexes(of order: OrderRecord, unlessIn kept: OrderRecord?) throws {
        let keep = Set([kept?.customer, kept?.dasher].compactMap { $0 })
        let commands = [order.customer, order.dasher].filter { !keep.contains($0) }.map { ["SREM", RedisKeys.orders($0), order.id] }
            + (keep.contains(order.dasher) ? [] : [["SREM", RedisKeys.dashing(order.dasher, order.state), order.id]])
        if !commands.isEmpty { try write(commands) }
    }
}
