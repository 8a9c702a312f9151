import Foundation
import LiveMap

/// One master's listener: its slots' channels subscribed on one connection, pinged every `pingInterval`.
extension RedisChangeBus {
    /// Listens to `node` for the slots the map gives it, subscribing again whenever that is lost, until the bus is
    /// closed or the node owns no slot.
    func listenLoop(_ node: RedisCluster.Node) {
        var pause = Self.retryPauses.first
        while !isClosed {
            let slots = slotsOf(node)
            guard !slots.isEmpty else { return }
            do {
                try subscription(node, slots: slots)
                pause = Self.retryPauses.first
            } catch {
                pause = min(pause * 2, Self.retryPauses.longest)
            }
            guard !isClosed else { return }
            Thread.sleep(forTimeInterval: pause)
            try? cluster.refresh(within: 1)
        }
    }

    /// Subscribes to the channels of `slots` on `node`, delivers `.resync` (what was announced before is read
    /// again), then delivers its messages and pings it until the subscription is lost.
    private func subscription(_ node: RedisCluster.Node, slots: [Int]) throws {
        let connection = try RedisConnection(host: node.host, port: node.port, timeout: Self.pingTimeout)
        try connection.send(["CLIENT", "SETNAME", "snapmap-bus-" + cluster.origin])
        for slot in slots { try connection.send(["SSUBSCRIBE", RedisKeys.channels[slot]]) }
        var confirmations = 0
        let deadline = Date().addingTimeInterval(Self.pingTimeout)
        while confirmations < slots.count {
            guard Date() < deadline, let reply = try connection.reply(within: deadline.timeIntervalSinceNow) else {
                throw RedisFailure(description: "\(node): subscriptions not confirmed")
            }
            switch reply {
            case .error(let message): throw RedisFailure(description: "\(node): \(message)")
            case .status: continue
            default:
                if reply.elements.first?.text?.lowercased() == "ssubscribe" { confirmations += 1 }
            }
        }
        subscribed(node, slots: slots)
        deliver(.resync)
        try follow(connection, node, slots: slots)
    }

    /// Delivers `connection`'s messages and pings it; returns when the subscription is lost or the map moved slots.
    private func follow(_ connection: RedisConnection, _ node: RedisCluster.Node, slots: [Int]) throws {
        var pingSent: UInt64?
        var lastPing: UInt64 = 0
        var waited = 0.0
        var lastCheck = Date()
        while !isClosed {
            let now = DispatchTime.now().uptimeNanoseconds
            let sinceLastPing = Double(now &- lastPing) / 1e9
            if pingSent == nil, sinceLastPing >= Self.pingInterval {
                try connection.send(["PING"])
                (pingSent, lastPing, waited) = (now, now, 0)
            }
            let started = Date()
            let wait = pingSent == nil ? max(0.001, Self.pingInterval - sinceLastPing) : Self.pingInterval
            if let reply = try connection.reply(within: wait) {
                let items = reply.elements
                switch items.first?.text?.lowercased() {
                case "smessage":
                    if items.count == 3, let payload = items[2].text, let message = decode(payload) { deliver(message) }
                case "sunsubscribe": return
                case "pong":
                    if let sent = pingSent { answered(node, at: sent) }
                    pingSent = nil
                default:
                    if case .error = reply { return }
                }
            } else if pingSent != nil {
                waited += Date().timeIntervalSince(started)
                if waited > Self.pingTimeout { throw RedisFailure(description: "\(node): a ping unanswered for \(Self.pingTimeout) s") }
            }
            if Date().timeIntervalSince(lastCheck) >= Self.checkInterval {
                lastCheck = Date()
                if slotsOf(node) != slots { return }
            }
        }
    }

    /// The slots the slot map gives `node`, in order.
    func slotsOf(_ node: RedisCluster.Node) -> [Int] {
        let map = cluster.map
        return map.indices.filter { map[$0] == node }
    }
}
