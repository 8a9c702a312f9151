import Foundation

/// What a deletion leaves on the nodes' disks. Each node logs every write it applies to its append-only file
/// (`appendonly yes`, as `deploy/` runs it), a deleted person's name, places and Snaps included, until that file is
/// rewritten from the data as it now is (Redis then drops the old files). So a removal has every master of the slot
/// map and each of its replicas rewrite theirs (`BGREWRITEAOF`): a replica once it has applied everything its
/// master had (its processed offset reached the master's), a node already rewriting once that rewrite, which may
/// have started before the removal, has ended. Each node's slow log (in memory, read with `SLOWLOG GET`) keeps the
/// arguments of any command slower than 10 ms, a fix's place or a person's name among them (the rewrite's own fork
/// makes some), so it is emptied at the same time.
extension RedisCluster {
    /// How long the rewrites may take to be asked for, in all.
    static let rewriteBudget = 2.0

    /// Asks every node to rewrite its append-only file after the writes made so far, and empties its slow log; returns
    /// the nodes that took the rewrite (started or scheduled it). A node that does not answer within the budget is left as it is: its
    /// file keeps what it logged until its own next rewrite (a replica's full sync rewrites it too).
    @discardableResult
    func rewriteAppendOnlyFiles() -> [Node] {
        let deadline = Date().addingTimeInterval(Self.rewriteBudget)
        let masters = Set(map.compactMap { $0 }).sorted { $0.description < $1.description }
        let asked = Asked()
        DispatchQueue.concurrentPerform(iterations: masters.count) { index in
            let master = masters[index]
            guard let connection = try? RedisConnection(host: master.host, port: master.port, timeout: Self.connectTimeout),
                  let replication = try? connection.command(["INFO", "replication"]).text,
                  let offset = Self.field("master_repl_offset", in: replication).flatMap(Int.init) else { return }
            if Self.rewrite(connection, until: deadline) { asked.add(master) }
            _ = try? connection.command(["SLOWLOG", "RESET"])
            for replica in Self.replicas(in: replication) {
                guard let link = try? RedisConnection(host: replica.host, port: replica.port, timeout: Self.connectTimeout) else { continue }
                if Self.caughtUp(link, to: offset, until: deadline), Self.rewrite(link, until: deadline) { asked.add(replica) }
                _ = try? link.command(["SLOWLOG", "RESET"])
            }
        }
        return asked.nodes
    }

    /// Asks `connection`'s node to rewrite its file, waiting out a rewrite already running; false when it would not
    /// by `deadline` (or has no append-only file).
    private static func rewrite(_ connection: RedisConnection, until deadline: Date) -> Bool {
        while Date() < deadline {
            guard let persistence = try? connection.command(["INFO", "persistence"]).text,
                  field("aof_enabled", in: persistence) == "1" else { return false }
            if field("aof_rewrite_in_progress", in: persistence) == "0",
               let reply = try? connection.command(["BGREWRITEAOF"]), case .status = reply { return true }
            usleep(20_000)
        }
        return false
    }

    /// Whether the replica on `connection` has processed its master's stream up to `offset` by `deadline`.
    private static func caughtUp(_ connection: RedisConnection, to offset: Int, until deadline: Date) -> Bool {
        while Date() < deadline {
            guard let replication = try? connection.command(["INFO", "replication"]).text,
                  let processed = field("slave_repl_offset", in: replication).flatMap(Int.init) else { return false }
            if processed >= offset { return true }
            usleep(5_000)
        }
        return false
    }

    /// The replicas a master's `INFO replication` lists (`slaveN:ip=…,port=…,…`).
    private static func replicas(in replication: String) -> [Node] {
        replication.split(whereSeparator: \.isNewline).compactMap { line -> Node? in
            guard line.hasPrefix("slave"), let colon = line.firstIndex(of: ":") else { return nil }
            let fields = Dictionary(line[line.index(after: colon)...].split(separator: ",").compactMap { pair -> (String, String)? in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }) { first, _ in first }
            guard let host = fields["ip"], let port = fields["port"].flatMap(Int.init) else { return nil }
            return Node(host: host, port: port)
        }
    }

    /// The value of `name` in an `INFO` answer's `name:value` lines.
    private static func field(_ name: String, in info: String) -> String? {
        info.split(whereSeparator: \.isNewline).first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) }
    }

    /// The nodes that took the request, gathered from the masters' threads.
    private final class Asked: @unchecked Sendable {
        private let lock = NSLock()
        private var taken: [Node] = []

        func add(_ node: Node) { lock.withLock { taken.append(node) } }
        var nodes: [Node] { lock.withLock { taken } }
    }
}
