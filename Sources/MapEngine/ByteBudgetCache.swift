import Foundation

/// A thread-safe least-recently-used cache with a byte budget: lookups, inserts and evictions are O(1) (a
/// dictionary of nodes on a doubly linked list). Values larger than a quarter of the budget are not kept.
public final class ByteBudgetCache<Key: Hashable & Sendable, Value>: @unchecked Sendable {
    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        var newer: Node?
        weak var older: Node?

        init(key: Key, value: Value, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    public let budget: Int
    private let lock = NSLock()
    private var nodes: [Key: Node] = [:]
    /// The least recently used node, and the most.
    private var oldest: Node?
    private var newest: Node?
    private var used = 0

    public init(budget: Int) {
        self.budget = budget
    }

    /// The bytes held now.
    public var bytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return used
    }

    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return nodes.count
    }

    /// Forgets everything held (what was drawn from data that has since gone).
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        var node = oldest
        while let current = node {
            node = current.newer
            current.newer = nil
        }
        nodes = [:]
        oldest = nil
        newest = nil
        used = 0
    }

    public func value(_ key: Key) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard let node = nodes[key] else { return nil }
        unlink(node)
        append(node)
        return node.value
    }

    /// Whether a value costing `cost` bytes would be kept (no more than a quarter of the budget).
    public func keeps(cost: Int) -> Bool { cost <= budget / 4 }

    /// Keeps `value` (costing `cost` bytes) under `key`, evicting the least recently used beyond the budget.
    public func store(_ value: Value, for key: Key, cost: Int) {
        lock.lock()
        defer { lock.unlock() }
        if let old = nodes.removeValue(forKey: key) {
            unlink(old)
            used -= old.cost
        }
        guard keeps(cost: cost) else { return }
        let node = Node(key: key, value: value, cost: cost)
        nodes[key] = node
        append(node)
        used += cost
        while used > budget, let victim = oldest {
            unlink(victim)
            nodes[victim.key] = nil
            used -= victim.cost
        }
    }

    /// Forgets the value under `key`, if any.
    public func removeValue(for key: Key) {
        lock.lock()
        defer { lock.unlock() }
        guard let node = nodes.removeValue(forKey: key) else { return }
        unlink(node)
        used -= node.cost
    }

    private func unlink(_ node: Node) {
        if let older = node.older { older.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { newer.older = node.older } else { newest = node.older }
        node.newer = nil
        node.older = nil
    }

    private func append(_ node: Node) {
        node.older = newest
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }
}
