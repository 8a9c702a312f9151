import Foundation

/// A Redis Cluster client: the slot map from `CLUSTER SLOTS`, CRC16 key slots (hash tags honoured), commands
/// pipelined per node, `MOVED` and `ASK` redirects followed, the map refreshed when it changes or a node fails.
/// Thread-safe: connections are pooled per node.
public final class RedisCluster: @unchecked Sendable {
    public static let slotCount = 16384
    /// How many times a command is retried while the cluster reconfigures (a failover takes seconds).
    static let attempts = 40
    static let retryPause = 0.25

    public struct Node: Hashable, Sendable, CustomStringConvertible {
        public let host: String
        public let port: Int
        public var description: String { "\(host):\(port)" }

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    private let seeds: [Node]
    private let lock = NSLock()
    private var slots: [Node?] = Array(repeating: nil, count: RedisCluster.slotCount)
    private var idle: [Node: [RedisConnection]] = [:]

    /// Connects to the cluster through any of `seeds` and reads its slot map.
    public init(seeds: [Node]) throws {
        self.seeds = seeds
        try refresh()
    }

    /// Parses `redis://host:port[,host:port…]`.
    public static func seeds(from url: String) throws -> [Node] {
        guard url.hasPrefix("redis://") else { throw RedisFailure(description: "store: expected redis://host:port[,host:port…], got \"\(url.prefix(60))\"") }
        return try url.dropFirst(8).split(separator: ",").map { part in
            let pieces = part.split(separator: ":")
            guard pieces.count == 2, let port = Int(pieces[1]), (1...65535).contains(port), !pieces[0].isEmpty else {
                throw RedisFailure(description: "store: expected host:port, got \"\(part.prefix(60))\"")
            }
            return Node(host: String(pieces[0]), port: port)
        }
    }

    /// The slot of a key: CRC16 of its hash tag (the text between the first `{` and the next `}`), or of the key.
    public static func slot(of key: String) -> Int {
        let bytes = Array(key.utf8)
        var part = bytes[...]
        if let open = bytes.firstIndex(of: UInt8(ascii: "{")), let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "}")), close > open + 1 {
            part = bytes[(open + 1)..<close]
        }
        return Int(CRC16.xmodem(part)) % slotCount
    }

    /// The master that owns a key's slot now.
    public func node(for key: String) throws -> Node {
        guard let node = lock.withLock({ slots[Self.slot(of: key)] }) else { throw RedisFailure(description: "no node owns the slot of \(key)") }
        return node
    }

    /// Reads the slot map from the first node that answers.
    public func refresh() throws {
        var failures: [String] = []
        let known = lock.withLock { Set(slots.compactMap { $0 }) }
        for node in seeds + known.sorted(by: { $0.description < $1.description }) {
            do {
                let reply = try withConnection(node) { try $0.command(["CLUSTER", "SLOTS"]) }
                var map: [Node?] = Array(repeating: nil, count: Self.slotCount)
                for range in reply.elements {
                    let fields = range.elements
                    guard fields.count >= 3, let first = fields[0].integer, let last = fields[1].integer,
                          let host = fields[2].elements.first?.text, let port = fields[2].elements.dropFirst().first?.integer else { continue }
                    let master = Node(host: host.isEmpty ? node.host : host, port: port)
                    for slot in first...min(last, Self.slotCount - 1) { map[slot] = master }
                }
                guard map.allSatisfy({ $0 != nil }) else { failures.append("\(node): slots not all covered"); continue }
                lock.withLock { slots = map }
                return
            } catch {
                failures.append("\(error)")
            }
        }
        throw RedisFailure(description: "no cluster node answered with a full slot map: \(failures.joined(separator: "; "))")
    }

    /// Runs commands whose key is their second argument (the first key for EVAL), pipelined per node, replies in order. With `durable`,
    /// each node's writes are followed by `WAIT 1`: they return once a replica has them. Redirects and failovers
    /// are retried; what still fails throws.
    public func run(_ commands: [[String]], durable: Bool = false) throws -> [RedisReply] {
        var replies = [RedisReply?](repeating: nil, count: commands.count)
        var pending = Array(commands.indices)
        var asking: [Int: Node] = [:]
        var lastError = ""
        for attempt in 0..<Self.attempts {
            if attempt > 0 { Thread.sleep(forTimeInterval: Self.retryPause) }
            let map = lock.withLock { slots }
            var byNode: [Node: [Int]] = [:]
            for index in pending {
                guard let node = asking[index] ?? map[Self.slot(of: Self.routingKey(commands[index]))] else {
                    lastError = "no node serves the slot of \(Self.routingKey(commands[index]))"
                    continue
                }
                byNode[node, default: []].append(index)
            }
            var retry: [Int] = []
            var mapChanged = false
            for (node, indices) in byNode {
                var batch: [[String]] = []
                for index in indices {
                    if asking[index] != nil { batch.append(["ASKING"]) }
                    batch.append(commands[index])
                }
                if durable { batch.append(["WAIT", "1", "2000"]) }
                do {
                    let answers = try withConnection(node) { try $0.pipeline(batch) }
                    if durable, (answers.last?.integer ?? 0) < 1 {
                        lastError = "\(node): no replica acknowledged the write"
                        retry += indices
                        continue
                    }
                    var position = 0
                    for index in indices {
                        if asking[index] != nil { position += 1 }
                        let answer = answers[position]
                        position += 1
                        asking[index] = nil
                        if case .error(let message) = answer, let redirect = Self.redirect(message) {
                            lastError = message
                            if redirect.ask { asking[index] = redirect.node } else { mapChanged = true }
                            retry.append(index)
                        } else if case .error(let message) = answer, message.hasPrefix("TRYAGAIN") || message.hasPrefix("CLUSTERDOWN") {
                            lastError = message
                            retry.append(index)
                        } else {
                            replies[index] = answer
                        }
                    }
                } catch {
                    lastError = "\(error)"
                    mapChanged = true
                    retry += indices
                }
            }
            if mapChanged { try? refresh() }
            pending = retry
            if pending.isEmpty { return replies.map { $0 ?? .null } }
        }
        throw RedisFailure(description: "the cluster did not answer: \(lastError)")
    }

    /// Runs `body` with a pooled connection to `node`; a broken connection is dropped.
    private func withConnection<T>(_ node: Node, _ body: (RedisConnection) throws -> T) throws -> T {
        let reused = lock.withLock { idle[node]?.popLast() }
        let connection = try reused ?? RedisConnection(host: node.host, port: node.port)
        defer {
            if !connection.isBroken { lock.withLock { idle[node, default: []].append(connection) } }
        }
        return try body(connection)
    }

    /// The key a command is routed by: the first key of EVAL, the key of MEMORY USAGE, else the second argument.
    static func routingKey(_ command: [String]) -> String {
        switch command.first {
        case "EVAL" where command.count > 3: return command[3]
        case "MEMORY" where command.count > 2: return command[2]
        default: return command.count > 1 ? command[1] : ""
        }
    }

    private static func redirect(_ message: String) -> (node: Node, ask: Bool)? {
        let parts = message.split(separator: " ")
        guard parts.count == 3, parts[0] == "MOVED" || parts[0] == "ASK" else { return nil }
        let address = parts[2].split(separator: ":")
        guard address.count == 2, let port = Int(address[1]) else { return nil }
        return (Node(host: String(address[0]), port: port), parts[0] == "ASK")
    }
}

/// CRC16/XMODEM, the checksum Redis Cluster maps keys to slots with.
enum CRC16 {
    static func xmodem<Bytes: Sequence>(_ bytes: Bytes) -> UInt16 where Bytes.Element == UInt8 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }
}
