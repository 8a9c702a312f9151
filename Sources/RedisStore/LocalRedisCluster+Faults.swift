import Foundation

extension LocalRedisCluster {
    /// The port of the master that owns `key`'s slot now.
    public func master(of key: String) throws -> Int {
        try RedisCluster(seeds: seeds).node(for: key).port
    }

    /// Kills a node's server (kill -9), as a crash would.
    public func kill(_ port: Int) throws {
        let info = try RedisConnection(host: "127.0.0.1", port: port).command(["INFO", "server"]).text ?? ""
        guard let line = info.split(separator: "\r\n").first(where: { $0.hasPrefix("process_id:") }), let pid = Int32(line.dropFirst(11)) else {
            throw RedisFailure(description: "no process id from \(port)")
        }
        Foundation.kill(pid, SIGKILL)
        try waitFor("\(port) to stop answering") { (try? RedisConnection(host: "127.0.0.1", port: port, timeout: 0.2)) == nil }
    }

    /// Waits until the other nodes have promoted a replica in place of the dead `port`: the cluster is ok and
    /// no slot is served by it.
    public func waitForFailover(from port: Int) throws {
        let survivor = ports.first { $0 != port }!
        let deadline = Date().addingTimeInterval(60)
        while true {
            if let connection = try? RedisConnection(host: "127.0.0.1", port: survivor),
               (try? connection.command(["CLUSTER", "INFO"]).text)?.contains("cluster_state:ok") == true,
               let slots = try? connection.command(["CLUSTER", "SLOTS"]),
               !slots.elements.contains(where: { $0.elements.count > 2 && $0.elements[2].elements.dropFirst().first?.integer == port }) {
                return
            }
            guard Date() < deadline else { throw RedisFailure(description: "no failover from \(port)") }
            usleep(50_000)
        }
    }
}

extension LocalRedisCluster {
    /// The ports of the masters that serve slots now, in port order.
    public func masters() throws -> [Int] {
        let owners = try slotOwners()
        return Set(owners).sorted()
    }

    /// The ports of the replicas a master streams to now (with `online`, only those in sync).
    public func replicas(of master: Int, online: Bool = false) throws -> [Int] {
        let info = try RedisConnection(host: "127.0.0.1", port: master).command(["INFO", "replication"]).text ?? ""
        let lines = info.split(separator: "\r\n").filter { $0.hasPrefix("slave") && $0.contains("port=") && (!online || $0.contains("state=online")) }
        return lines.compactMap { line in line.split(separator: ",").first { $0.hasPrefix("port=") }.flatMap { Int($0.dropFirst(5)) } }.sorted()
    }

    /// Gives every master `replicasPerMaster` replicas in sync again, moving back (`CLUSTER REPLICATE`) replicas
    /// that migrated to a master left without one, so a fault test finds the cluster as it was made.
    public func restoreReplicas() throws {
        try waitForHealthyCluster()
        var replicas = try Dictionary(uniqueKeysWithValues: masters().map { ($0, try self.replicas(of: $0)) })
        while let short = replicas.first(where: { $0.value.count < replicasPerMaster })?.key,
              let donor = replicas.first(where: { $0.value.count > replicasPerMaster })?.key, let moving = replicas[donor]?.last {
            let id = try Self.checked(RedisConnection(host: "127.0.0.1", port: short).command(["CLUSTER", "MYID"])).text ?? ""
            try Self.checked(RedisConnection(host: "127.0.0.1", port: moving).command(["CLUSTER", "REPLICATE", id]))
            replicas[donor]?.removeLast()
            replicas[short, default: []].append(moving)
        }
        try waitFor("every master with \(replicasPerMaster) replicas in sync") {
            (try? self.masters().allSatisfy { (try? self.replicas(of: $0, online: true).count) == self.replicasPerMaster }) == true
        }
        try waitForHealthyCluster()
    }

    /// The port of the master serving each slot, read from the first node that answers.
    public func slotOwners() throws -> [Int] {
        for port in ports {
            guard let reply = try? RedisConnection(host: "127.0.0.1", port: port, timeout: 0.5).command(["CLUSTER", "SLOTS"]) else { continue }
            var owners = [Int](repeating: 0, count: RedisCluster.slotCount)
            for range in reply.elements {
                let fields = range.elements
                guard fields.count >= 3, let first = fields[0].integer, let last = fields[1].integer,
                      let owner = fields[2].elements.dropFirst().first?.integer else { continue }
                for slot in first...last { owners[slot] = owner }
            }
            return owners
        }
        throw RedisFailure(description: "no node answered CLUSTER SLOTS")
    }

    /// Moves slots to the master on `port` as `redis-cli --cluster reshard` does: each slot marked importing and
    /// migrating, its keys moved with MIGRATE, then given to the new owner on both nodes and every other master.
    public func moveSlots(_ slots: [Int], to port: Int) throws {
        let target = try RedisConnection(host: "127.0.0.1", port: port)
        let targetID = try Self.checked(target.command(["CLUSTER", "MYID"])).text ?? ""
        let owners = try slotOwners()
        for slot in slots where owners[slot] != port {
            let source = try RedisConnection(host: "127.0.0.1", port: owners[slot])
            let sourceID = try Self.checked(source.command(["CLUSTER", "MYID"])).text ?? ""
            try Self.checked(target.command(["CLUSTER", "SETSLOT", String(slot), "IMPORTING", sourceID]))
            try Self.checked(source.command(["CLUSTER", "SETSLOT", String(slot), "MIGRATING", targetID]))
            while true {
                let keys = try Self.checked(source.command(["CLUSTER", "GETKEYSINSLOT", String(slot), "100"])).elements.compactMap(\.text)
                if keys.isEmpty { break }
                try Self.checked(source.command(["MIGRATE", "127.0.0.1", String(port), "", "0", "5000", "KEYS"] + keys))
            }
            for node in [target, source] { try Self.checked(node.command(["CLUSTER", "SETSLOT", String(slot), "NODE", targetID])) }
            for other in Set(owners) where other != port && other != owners[slot] {
                try Self.checked(RedisConnection(host: "127.0.0.1", port: other).command(["CLUSTER", "SETSLOT", String(slot), "NODE", targetID]))
            }
        }
    }

    /// Kills every server (kill -9).
    public func killAll() throws {
        for port in ports { try kill(port) }
    }

    /// Starts every server again (each rejoins with its saved cluster configuration and data).
    public func startAll() throws {
        for port in ports { try start(port) }
    }

    @discardableResult
    private static func checked(_ reply: RedisReply) throws -> RedisReply {
        if case .error(let message) = reply { throw RedisFailure(description: message) }
        return reply
    }
}
