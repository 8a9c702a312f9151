import Foundation
import GeoCore
import LiveMap

/// Carries live changes between snapmap replicas through Redis Cluster's sharded pub/sub: messages go out with
/// `SPUBLISH` on a few channels spread over the shards, and each replica `SSUBSCRIBE`s to all of them, one
/// listening connection per channel on the master that owns its slot. A listener subscribes again when Redis
/// unsubscribes it (its slot moved, or its node became a replica), when a redirect or the slot map names another
/// owner, and when its node stops answering pings (a failover). A replica skips its own messages.
public final class RedisChangeBus: LiveBus, @unchecked Sendable {
    public static let channels = (0..<8).map { "{snapmap-events-\($0)}" }
    /// How long a listener waits in silence before it pings its node and checks that the node still owns the slot.
    static let checkInterval = 0.5
    /// How long a ping may go unanswered before the connection counts as dead.
    static let pingTimeout = 2.0
    /// The first and the longest pause before a listener tries again after a failure.
    static let retryPauses = (first: 0.05, longest: 0.25)
    /// The longest one channel's messages wait to go out; those that cannot are dropped (the streams' sweep catches up).
    static let publishBudget = 0.5
    /// Messages waiting to go out at most; past it new ones are dropped.
    static let outboxLimit = 10_000

    private let cluster: RedisCluster
    private let origin = UUID().uuidString
    private let lock = NSLock()
    private var handlers: [@Sendable (LiveBusMessage) -> Void] = []
    private var listening = false
    private var closed = false
    private var outbox: [[String]] = []
    private var draining = false
    private let publisher = DispatchQueue(label: "snapmap-bus-publish")

    public init(cluster: RedisCluster) {
        self.cluster = cluster
    }

    /// Queues the message and returns: a publisher thread sends what is queued, pipelined per channel, so no
    /// request waits on the bus, and a channel whose node is down delays none of the others.
    public func publish(_ message: LiveBusMessage) {
        let (channel, payload) = encode(message)
        let start: Bool = lock.withLock {
            guard outbox.count < Self.outboxLimit else { return false }
            outbox.append(["SPUBLISH", channel, payload])
            defer { draining = true }
            return !draining
        }
        if start { publisher.async { self.drain() } }
    }

    private func drain() {
        while true {
            let batch: [[String]] = lock.withLock {
                defer { outbox = [] }
                if outbox.isEmpty { draining = false }
                return outbox
            }
            guard !batch.isEmpty else { return }
            for (_, messages) in Dictionary(grouping: batch, by: { $0[1] }).sorted(by: { $0.key < $1.key }) {
                _ = try? cluster.run(messages, within: Self.publishBudget)
            }
        }
    }

    public func listen(_ handler: @escaping @Sendable (LiveBusMessage) -> Void) {
        lock.lock()
        handlers.append(handler)
        let start = !listening && !closed
        listening = true
        lock.unlock()
        guard start else { return }
        for channel in Self.channels {
            let thread = Thread { [self] in self.listenLoop(channel) }
            thread.name = "snapmap-bus-\(channel)"
            thread.start()
        }
    }

    /// Stops listening: each listener ends within `checkInterval` (or its current connection attempt).
    public func close() {
        lock.withLock { closed = true }
    }

    private var isClosed: Bool { lock.withLock { closed } }

    /// One channel's subscription, made again whenever it is lost, until the bus is closed.
    private func listenLoop(_ channel: String) {
        var pause = Self.retryPauses.first
        var redirect: RedisCluster.Node?
        while !isClosed {
            let outcome = Result { try subscription(channel, at: redirect) }
            guard !isClosed else { return }
            switch outcome {
            case .success(.redirected(let node)) where redirect == nil:
                // Followed at once, but only once in a row: two nodes that disagree mid-migration pause it.
                redirect = node
                continue
            case .success:
                pause = Self.retryPauses.first
            case .failure:
                pause = min(pause * 2, Self.retryPauses.longest)
            }
            redirect = nil
            Thread.sleep(forTimeInterval: pause)
            try? cluster.refresh(within: 1)
        }
    }

    private enum Ending {
        /// The subscription ended after it was made (unsubscribed, slot moved, node gone quiet).
        case lost
        /// The node said another owns the slot.
        case redirected(RedisCluster.Node)
    }

    /// Subscribes to `channel` on `node` (default: its owner in the slot map) and delivers its messages until the
    /// subscription is lost.
    private func subscription(_ channel: String, at node: RedisCluster.Node?) throws -> Ending {
        let node = try node ?? cluster.node(for: channel)
        let connection = try RedisConnection(host: node.host, port: node.port, timeout: Self.pingTimeout)
        let answer = try connection.command(["SSUBSCRIBE", channel])
        if case .error(let message) = answer {
            guard let redirect = RedisCluster.redirect(message) else { throw RedisFailure(description: "\(node): \(message)") }
            cluster.route(slot: redirect.slot, to: redirect.node)
            return .redirected(redirect.node)
        }
        var pingSent: Date?
        var lastCheck = Date()
        while !isClosed {
            if let reply = try connection.reply(within: Self.checkInterval) {
                let items = reply.elements
                switch items.first?.text?.lowercased() {
                case "smessage":
                    if items.count == 3, let payload = items[2].text, let message = decode(payload) { deliver(message) }
                case "sunsubscribe": return .lost
                case "pong": pingSent = nil
                default:
                    if reply == .status("PONG") { pingSent = nil }
                    if case .error = reply { return .lost }
                }
            }
            let now = Date()
            guard now.timeIntervalSince(lastCheck) >= Self.checkInterval else { continue }
            lastCheck = now
            if let sent = pingSent, now.timeIntervalSince(sent) > Self.pingTimeout { return .lost }
            if (try? cluster.node(for: channel)) != node { return .lost }
            if pingSent == nil {
                try connection.send(["PING"])
                pingSent = now
            }
        }
        return .lost
    }

    private func deliver(_ message: LiveBusMessage) {
        let current = lock.withLock { handlers }
        for handler in current { handler(message) }
    }

    private func encode(_ message: LiveBusMessage) -> (String, String) {
        (Self.channels[Int(CRC16.xmodem(message.key.utf8)) % Self.channels.count], origin + "|" + message.text)
    }

    private func decode(_ payload: String) -> LiveBusMessage? {
        guard let separator = payload.firstIndex(of: "|"), payload[..<separator] != origin else { return nil }
        return LiveBusMessage(text: String(payload[payload.index(after: separator)...]))
    }
}
