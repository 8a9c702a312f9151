import Foundation

/// A Redis Cluster client: the slot map from `CLUSTER SLOTS`, CRC16 key slots (hash tags honoured), commands
/// pipelined per node, `MOVED` and `ASK` redirects followed, the map read again when it changes or a node fails.
/// Every `run` ends within its budget (`budget`, 2 s): a node that failed is skipped for a second, so what is
/// routed to it fails at once instead of waiting; a write is sent again only when Redis did not apply it.
/// Thread-safe: connections are pooled per node.
public final class RedisCluster: @unchecked Sendable {
    public static let slotCount = 16384
    /// The longest one `run` takes, retries through redirects and reconfigurations included.
    public static let budget = 2.0
    /// How long a write waits for a replica to confirm it (`WAIT`'s timeout).
    public static let replicaWait = 1.0
    /// A shorter budget for the calls made inside `hurry.withValue` (nil: each call's own).
    static let hurry = TaskLocal<Double?>(wrappedValue: nil)
    /// How long a connection may take to open, and a reply to come (a node that takes longer is skipped a while).
    static let connectTimeout = 0.5
    static let replyTimeout = 1.0
    /// Pause between tries while a slot migrates (`TRYAGAIN`) or the map is read again after `READONLY`.
    static let retryPause = 0.05
    /// How long a node that failed is skipped, and a master without a replica refused writes, before it is tried again.
    static let quarantine = 1.0
    /// The slot map is read again at most this often when routing fails.
    static let refreshInterval = 0.2

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
    /// Counts each setting of `slots` (by `refresh` and `route`).
    private var mapChanges: UInt64 = 0
    private var idle: [Node: [RedisConnection]] = [:]
    private var lastRefresh = Date.distantPast
    private var refreshing = false
    let health = RedisNodeHealth(quarantine: RedisCluster.quarantine)
    /// What this client's announcements carry, so that a bus on the same client skips its own.
    public let origin = UUID().uuidString

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

    /// The master that owns a key's slot, as far as this client knows.
    public func node(for key: String) throws -> Node {
        guard let node = lock.withLock({ slots[Self.slot(of: key)] }) else { throw RedisFailure(description: "no node owns the slot of \(key)") }
        return node
    }

    /// The slot map as this client knows it.
    var map: [Node?] { lock.withLock { slots } }

    /// How many times the slot map was set: equal counts, the same map (for who keeps what they derived from it).
    var mapGeneration: UInt64 { lock.withLock { mapChanges } }

    /// The slot map and its generation, read together.
    var mapAndGeneration: (map: [Node?], generation: UInt64) { lock.withLock { (slots, mapChanges) } }

    /// Reads the slot map from the first node that answers within `budget` seconds, trying first those that have
    /// not just failed.
    public func refresh(within budget: Double = RedisCluster.budget) throws {
        let deadline = Date().addingTimeInterval(budget)
        var failures: [String] = []
        let known = lock.withLock { Set(slots.compactMap { $0 }) }
        let candidates = seeds + known.subtracting(seeds).sorted { $0.description < $1.description }
        let down = health.down()
        for node in candidates.filter({ !down.contains($0) }) + candidates.filter({ down.contains($0) }) {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { break }
            do {
                let connection = try RedisConnection(host: node.host, port: node.port, timeout: min(Self.connectTimeout, remaining))
                let map = try Self.slotMap(try connection.command(["CLUSTER", "SLOTS"]), askedNode: node)
                guard map.allSatisfy({ $0 != nil }) else { failures.append("\(node): slots not all covered"); continue }
                lock.withLock {
                    slots = map
                    mapChanges &+= 1
                    lastRefresh = Date()
                }
                return
            } catch {
                health.markDown(node)
                failures.append("\(error)")
            }
        }
        throw RedisFailure(description: "no cluster node answered with a full slot map: \(failures.joined(separator: "; "))")
    }

    /// Reads the slot map again in the background, unless that is under way or was done within `refreshInterval`:
    /// no request waits for it.
    func refreshIfDue() {
        let due: Bool = lock.withLock {
            guard !refreshing, Date().timeIntervalSince(lastRefresh) >= Self.refreshInterval else { return false }
            refreshing = true
            return true
        }
        guard due else { return }
        DispatchQueue.global().async {
            try? self.refresh()
            self.lock.withLock {
                self.refreshing = false
                self.lastRefresh = Date()
            }
        }
    }

    /// Routes one slot to `node` (a `MOVED` answer says so) until the map is read again.
    func route(slot: Int, to node: Node) {
        lock.withLock {
            slots[slot] = node
            mapChanges &+= 1
        }
    }

    private static func slotMap(_ reply: RedisReply, askedNode: Node) throws -> [Node?] {
        if case .error(let message) = reply { throw RedisFailure(description: "\(askedNode): \(message)") }
        var map: [Node?] = Array(repeating: nil, count: slotCount)
        for range in reply.elements {
            let fields = range.elements
            guard fields.count >= 3, let first = fields[0].integer, let last = fields[1].integer,
                  let host = fields[2].elements.first?.text, let port = fields[2].elements.dropFirst().first?.integer else { continue }
            let master = Node(host: host.isEmpty ? askedNode.host : host, port: port)
            for slot in first...min(last, slotCount - 1) { map[slot] = master }
        }
        return map
    }

    /// A pooled connection to `node` that is still open, or a new one opened within `timeout`.
    func checkout(_ node: Node, timeout: Double) throws(RedisFailure) -> RedisConnection {
        while let reused = lock.withLock({ idle[node]?.popLast() }) {
            if reused.isOpen { return reused }
        }
        return try RedisConnection(host: node.host, port: node.port, timeout: timeout)
    }

    /// Returns a connection to the pool, unless it broke.
    func checkin(_ connection: RedisConnection, _ node: Node) {
        guard !connection.isBroken else { return }
        lock.withLock { idle[node, default: []].append(connection) }
    }

    /// A node failed: it is skipped for a while and its idle connections (likely broken too) are closed.
    func failed(_ node: Node) {
        health.markDown(node)
        lock.withLock { idle[node] = nil }
    }

    /// The key a command is routed by: the first key of EVAL, the key of MEMORY USAGE, else the second argument.
    static func routingKey(_ command: [String]) -> String {
        switch command.first {
        case "EVAL" where command.count > 3: return command[3]
        case "MEMORY" where command.count > 2: return command[2]
        default: return command.count > 1 ? command[1] : ""
        }
    }

    /// A `MOVED` or `ASK` error's slot and node.
    static func redirect(_ message: String) -> (slot: Int, node: Node, ask: Bool)? {
        let parts = message.split(separator: " ")
        guard parts.count == 3, parts[0] == "MOVED" || parts[0] == "ASK", let slot = Int(parts[1]) else { return nil }
        let address = parts[2].split(separator: ":")
        guard address.count == 2, let port = Int(address[1]) else { return nil }
        return (slot, Node(host: String(address[0]), port: port), parts[0] == "ASK")
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
