import Foundation
import GeoCore
import LiveMap

/// Carries live changes between snapmap replicas through Redis Cluster's sharded pub/sub: messages go out with
/// `SPUBLISH` on a few channels spread over the shards, and each replica `SSUBSCRIBE`s to all of them, one
/// listening connection per shard, resubscribing after a failover. A replica skips its own messages.
public final class RedisChangeBus: LiveBus, @unchecked Sendable {
    public static let channels = (0..<8).map { "{snapmap-events-\($0)}" }
    /// How long a listening connection waits for a message before it reconnects (and resubscribes).
    static let listenTimeout = 600.0

    private let cluster: RedisCluster
    private let origin = UUID().uuidString
    private let lock = NSLock()
    private var handlers: [@Sendable (LiveBusMessage) -> Void] = []
    private var listening = false

    public init(cluster: RedisCluster) {
        self.cluster = cluster
    }

    public func publish(_ message: LiveBusMessage) {
        let (channel, payload) = encode(message)
        _ = try? cluster.run([["SPUBLISH", channel, payload]])
    }

    public func listen(_ handler: @escaping @Sendable (LiveBusMessage) -> Void) {
        lock.lock()
        handlers.append(handler)
        let start = !listening
        listening = true
        lock.unlock()
        guard start else { return }
        for channel in Self.channels {
            let thread = Thread { [self] in self.listenLoop(channel) }
            thread.name = "snapmap-bus-\(channel)"
            thread.start()
        }
    }

    /// One channel's subscription, on whichever node owns it now; reconnects after errors and failovers.
    private func listenLoop(_ channel: String) {
        while true {
            do {
                let node = try cluster.node(for: channel)
                let connection = try RedisConnection(host: node.host, port: node.port, timeout: Self.listenTimeout)
                _ = try connection.command(["SSUBSCRIBE", channel])
                while true {
                    let reply = try connection.readReply().elements
                    guard reply.count == 3, reply[0].text == "smessage", let payload = reply[2].text, let message = decode(payload) else { continue }
                    lock.lock()
                    let current = handlers
                    lock.unlock()
                    for handler in current { handler(message) }
                }
            } catch {
                Thread.sleep(forTimeInterval: RedisCluster.retryPause)
                try? cluster.refresh()
            }
        }
    }

    private func encode(_ message: LiveBusMessage) -> (String, String) {
        (Self.channels[Int(CRC16.xmodem(message.key.utf8)) % Self.channels.count], origin + "|" + message.text)
    }

    private func decode(_ payload: String) -> LiveBusMessage? {
        guard let separator = payload.firstIndex(of: "|"), payload[..<separator] != origin else { return nil }
        return LiveBusMessage(text: String(payload[payload.index(after: separator)...]))
    }
}
