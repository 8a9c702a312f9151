import Foundation
import LiveMap

/// Carries live changes between snapmap replicas through Redis Cluster's sharded pub/sub. The store announces
/// each change itself, in the pipeline of the write and in each slot it wrote (`RedisLiveStore.write`), so no
/// change is made without being told and publishing here has nothing left to do. Each replica listens to every
/// slot's channel, one connection per master for the slots it owns, and pings on it: Redis answers a ping after
/// every message it published before, so a pong says the node's messages up to the ping are heard
/// (`caughtUpAt`, the oldest such instant over the masters). A listener subscribes again, and delivers `.resync`
/// before it counts as caught up, whenever it lost its connection, Redis unsubscribed it (its slots moved, its
/// node was demoted), its node left a ping unanswered for `pingTimeout`, or the slot map gives it other slots.
/// A replica skips its own messages.
public final class RedisChangeBus: LiveBus, BusLiveness, @unchecked Sendable {
    /// The channel of each slot, by slot: what a write in that slot announces on.
    public static var channels: [String] { RedisKeys.channels }
    /// How often a listener pings its node: how far behind a caught-up listener's instant can be.
    static let pingInterval = 0.05
    /// How long a ping may go unanswered (while the listener waits on its socket) before the connection counts as dead.
    static let pingTimeout = 2.0
    /// How often the slot map is compared with the slots listened to.
    static let checkInterval = 0.25
    /// The first and the longest pause before a listener tries again after a failure.
    static let retryPauses = (first: 0.05, longest: 0.25)

    let cluster: RedisCluster
    let lock = NSLock()
    private var handlers: [@Sendable (LiveBusMessage) -> Void] = []
    private var listening = false
    private var closed = false
    /// Which master each slot is listened to on, and each master's last answered ping (monotonic ns).
    var heardFrom = [RedisCluster.Node?](repeating: nil, count: RedisCluster.slotCount)
    var answeredPing: [RedisCluster.Node: UInt64] = [:]
    /// The masters a listener runs for.
    var running = Set<RedisCluster.Node>()
    private var caughtUp: UInt64?
    /// Whether the slots listened to are the slot map's, and its masters, as of a map generation and a count of
    /// subscriptions: a pong (20 a second a master) then needs no pass over the 16,384 slots.
    private var subscriptions: UInt64 = 0
    private var compared: (generation: UInt64, subscriptions: UInt64, matches: Bool, masters: Set<RedisCluster.Node>)?

    public init(cluster: RedisCluster) {
        self.cluster = cluster
    }

    /// The instant (`DispatchTime` ns) before which every change announced on any master has been delivered here:
    /// the oldest answered ping, while the slots listened to are the slot map's; nil otherwise.
    public var caughtUpAt: UInt64? { lock.withLock { caughtUp } }

    /// The store announced the change already (`RedisLiveStore.write`).
    public func publish(_ message: LiveBusMessage) {}

    public func listen(_ handler: @escaping @Sendable (LiveBusMessage) -> Void) {
        let start: Bool = lock.withLock {
            handlers.append(handler)
            defer { listening = true }
            return !listening && !closed
        }
        guard start else { return }
        let thread = Thread { [self] in supervise() }
        thread.name = "snapmap-bus"
        thread.start()
    }

    /// Stops listening: each listener ends within `checkInterval` (or its current connection attempt).
    public func close() {
        lock.withLock { closed = true }
    }

    var isClosed: Bool { lock.withLock { closed } }

    /// Starts a listener for every master of the slot map that has none, until the bus is closed.
    private func supervise() {
        while !isClosed {
            for node in Set(cluster.map.compactMap { $0 }) {
                let start: Bool = lock.withLock { running.insert(node).inserted }
                guard start else { continue }
                let thread = Thread { [self] in
                    listenLoop(node)
                    lock.withLock { _ = running.remove(node) }
                }
                thread.name = "snapmap-bus-\(node)"
                thread.start()
            }
            recompute()
            Thread.sleep(forTimeInterval: Self.checkInterval)
        }
    }

    /// Records `node`'s subscription to `slots` (forgetting its answered ping when they changed, since a new slot's
    /// earlier messages were not heard there).
    func subscribed(_ node: RedisCluster.Node, slots: [Int]) {
        lock.withLock {
            let before = heardFrom.indices.filter { heardFrom[$0] == node }
            if before != slots { answeredPing[node] = nil }
            for slot in before { heardFrom[slot] = nil }
            for slot in slots { heardFrom[slot] = node }
            subscriptions &+= 1
        }
        recompute()
    }

    /// `node` answered a ping sent at `instant`: everything it published before then was delivered.
    func answered(_ node: RedisCluster.Node, at instant: UInt64) {
        lock.withLock { answeredPing[node] = instant }
        recompute()
    }

    /// Updates `caughtUpAt` from the answered pings and the slot map (compared with the slots listened to only when
    /// either changed).
    func recompute() {
        while true {
            let generation = cluster.mapGeneration
            let known = lock.withLock { compared.map { $0.generation == generation && $0.subscriptions == subscriptions } ?? false }
            let read = known ? nil : cluster.mapAndGeneration
            let done: Bool = lock.withLock {
                if let read { compared = (read.generation, subscriptions, read.map == heardFrom, Set(read.map.compactMap { $0 })) }
                // A subscription made since the check is compared again.
                guard let compared, compared.subscriptions == subscriptions else { return false }
                caughtUp = compared.matches ? oldestAnswer(of: compared.masters) : nil
                return true
            }
            if done { return }
        }
    }

    /// Must hold `lock`. The oldest answered ping of `masters`; nil while one has none.
    private func oldestAnswer(of masters: Set<RedisCluster.Node>) -> UInt64? {
        var oldest: UInt64?
        for node in masters {
            guard let instant = answeredPing[node] else { return nil }
            oldest = min(oldest ?? instant, instant)
        }
        return oldest
    }

    func deliver(_ message: LiveBusMessage) {
        let current = lock.withLock { handlers }
        for handler in current { handler(message) }
    }

    /// The message of an announcement's payload, unless this client made it.
    func decode(_ payload: String) -> LiveBusMessage? {
        guard let separator = payload.firstIndex(of: "|"), payload[..<separator] != cluster.origin else { return nil }
        return LiveBusMessage(text: String(payload[payload.index(after: separator)...]))
    }
}
