import Foundation

/// Running commands: grouped per node, pipelined, sent again only when Redis says it did not apply them, and
/// always within a budget.
extension RedisCluster {
    /// What became of one command sent to a node.
    private enum Step {
        case done(RedisReply)
        /// The slot lives elsewhere now (`MOVED`): not applied.
        case moved(slot: Int, node: Node, message: String)
        /// The key is being migrated (`ASK`): not applied; ask the importing node.
        case ask(Node, message: String)
        /// A slot is being migrated (`TRYAGAIN`) or a write reached a demoted master (`READONLY`): not applied.
        case later(String)
    }

    /// Runs commands (keyed by their second argument, EVAL's first key) pipelined per node, replies in order, within
    /// `budget` s; `durable` writes return once a replica has them, and one that may have been applied is not sent twice.
    public func run(_ commands: [[String]], durable: Bool = false, within budget: Double = RedisCluster.budget) throws -> [RedisReply] {
        // A command is sent again only when it was not applied (a redirect, TRYAGAIN, READONLY, a connection that did
        // not open); a write whose outcome is unknown (no replica confirmed it within `replicaWait`, or the
        // connection broke after it was sent) throws, and so does a cluster that says it is down or loading.
        let budget = min(budget, Self.hurry.get() ?? budget)
        let deadline = Date().addingTimeInterval(budget)
        var replies = [RedisReply?](repeating: nil, count: commands.count)
        var pending = Array(commands.indices)
        var asking: [Int: Node] = [:]
        var lastError = ""
        while true {
            let map = self.map
            var byNode: [Node: [Int]] = [:]
            for index in pending {
                let key = Self.routingKey(commands[index])
                guard let node = asking[index] ?? map[Self.slot(of: key)] else { throw RedisFailure(description: "no node serves the slot of \(key)") }
                byNode[node, default: []].append(index)
            }
            var retry: [Int] = []
            var pause = false
            for (node, indices) in byNode {
                if health.isDown(node) {
                    try rerouteAway(from: node, indices, commands, asking: asking)
                    retry += indices
                    continue
                }
                let steps: [Step]
                do {
                    steps = try attempt(node, indices.map { (commands[$0], asking[$0] != nil) }, durable: durable, deadline: deadline)
                } catch let failure as NotSent {
                    lastError = failure.description
                    retry += indices
                    continue
                }
                for (index, step) in zip(indices, steps) {
                    asking[index] = nil
                    switch step {
                    case .done(let reply): replies[index] = reply
                    case .moved(let slot, let target, let message):
                        route(slot: slot, to: target)
                        refreshIfDue()
                        (lastError, retry) = (message, retry + [index])
                    case .ask(let target, let message):
                        asking[index] = target
                        (lastError, retry) = (message, retry + [index])
                    case .later(let message):
                        (lastError, retry, pause) = (message, retry + [index], true)
                    }
                }
            }
            pending = retry
            if pending.isEmpty { return replies.map { $0 ?? .null } }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > (pause ? Self.retryPause : 0) else {
                throw RedisFailure(description: "the cluster did not answer within \(budget) s: \(lastError)")
            }
            if pause { Thread.sleep(forTimeInterval: Self.retryPause) }
        }
    }

    /// A node that failed less than `quarantine` ago: the slot map is read again, and unless it now sends these
    /// commands elsewhere the call fails at once (a failover is under way, or the node is gone).
    private func rerouteAway(from node: Node, _ indices: [Int], _ commands: [[String]], asking: [Int: Node]) throws {
        refreshIfDue()
        let map = self.map
        let stuck = indices.contains { asking[$0] == node || (asking[$0] == nil && map[Self.slot(of: Self.routingKey(commands[$0]))] == node) }
        if stuck { throw RedisFailure(description: "\(node) failed less than \(Self.quarantine) s ago; its slots answer once a replica takes over") }
    }

    /// The commands were not sent: they can be sent again without changing their meaning.
    private struct NotSent: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends one node's commands (each after `ASKING` when flagged), then, when durable and any was applied, waits
    /// for a replica.
    private func attempt(_ node: Node, _ batch: [(command: [String], asking: Bool)], durable: Bool, deadline: Date) throws -> [Step] {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw RedisFailure(description: "the cluster did not answer in time") }
        if durable { try checkWritable(node, deadline: deadline) }
        var commands: [[String]] = []
        for entry in batch {
            if entry.asking { commands.append(["ASKING"]) }
            commands.append(entry.command)
        }
        let connection: RedisConnection
        do {
            connection = try checkout(node, timeout: min(Self.connectTimeout, remaining))
        } catch {
            failed(node)
            throw NotSent(description: "\(error)")
        }
        connection.setTimeout(min(remaining, Self.replyTimeout))
        let answers: [RedisReply]
        do {
            answers = try connection.pipeline(commands)
        } catch {
            failed(node)
            refreshIfDue()
            guard !durable else { throw RedisFailure(description: "\(error) after the write was sent: it may have been applied, and is not sent again") }
            throw NotSent(description: "\(error)")
        }
        defer { checkin(connection, node) }
        health.markUp(node)
        var steps: [Step] = []
        var position = 0
        for entry in batch {
            if entry.asking { position += 1 }
            steps.append(try step(answers[position], from: node))
            position += 1
        }
        let applied = steps.contains { if case .done = $0 { return true } else { return false } }
        if durable, applied { try waitForReplica(connection, node, deadline: deadline) }
        return steps
    }

    /// `WAIT 1` after writes that were applied (one that Redis refused is answered at once, not after the wait).
    private func waitForReplica(_ connection: RedisConnection, _ node: Node, deadline: Date) throws {
        let milliseconds = Int(max(0.01, min(Self.replicaWait, deadline.timeIntervalSinceNow - 0.1)) * 1000)
        let confirmed: Int
        connection.setTimeout(max(0.01, deadline.timeIntervalSinceNow))
        do {
            confirmed = try connection.command(["WAIT", "1", String(milliseconds)]).integer ?? 0
        } catch {
            failed(node)
            throw RedisFailure(description: "\(error) while waiting for a replica: the write may have been applied, and is not sent again")
        }
        guard confirmed < 1 else { return }
        health.markWithoutReplica(node)
        throw RedisFailure(description: "\(node): no replica confirmed the write within \(milliseconds) ms; it may have been applied, and is not sent again")
    }

    private func step(_ answer: RedisReply, from node: Node) throws -> Step {
        guard case .error(let message) = answer else { return .done(answer) }
        if let redirect = Self.redirect(message) {
            return redirect.ask ? .ask(redirect.node, message: message) : .moved(slot: redirect.slot, node: redirect.node, message: message)
        }
        if message.contains("NOREPLICAS") {
            health.markWithoutReplica(node)
            throw RedisFailure(description: "\(node): \(message)")
        }
        // A cluster or node that is down or loading takes longer than any request waits: answer at once.
        if ["CLUSTERDOWN", "LOADING", "MASTERDOWN"].contains(where: message.hasPrefix) { throw RedisFailure(description: "\(node): \(message)") }
        if message.hasPrefix("READONLY") {
            refreshIfDue()
            return .later("\(node): \(message)")
        }
        return message.hasPrefix("TRYAGAIN") ? .later("\(node): \(message)") : .done(answer)
    }

    /// Refuses writes to a master that had no replica, asking it again (`ROLE`) at most once per `quarantine`.
    private func checkWritable(_ node: Node, deadline: Date) throws {
        switch health.writes(to: node) {
        case .allowed: return
        case .refused: break
        case .check:
            let remaining = deadline.timeIntervalSinceNow
            if let connection = try? checkout(node, timeout: min(Self.connectTimeout, remaining)) {
                connection.setTimeout(max(0.01, min(remaining, Self.replyTimeout)))
                let role = try? connection.command(["ROLE"]).elements
                checkin(connection, node)
                if let role, role.first?.text != "master" || role.dropFirst(2).first?.elements.isEmpty == false {
                    health.markReplicated(node)
                    return
                }
            }
        }
        throw RedisFailure(description: "\(node) has no replica: its writes are refused until one is back")
    }
}
