import Foundation

/// What a cluster client has learnt about nodes that failed, so that no request waits on a known failure.
/// A node that refused or dropped a connection is skipped for `quarantine` seconds: what is routed to it fails at
/// once (503) while the slot map is read again. A master whose write no replica confirmed takes no writes until
/// it shows an online replica again (checked at most once per `quarantine`): they are refused before being sent,
/// so they are neither applied nor seen.
final class RedisNodeHealth: @unchecked Sendable {
    /// Whether a master may be sent writes now.
    enum Writes {
        case allowed
        /// Refused without asking: it had no replica less than `quarantine` seconds ago.
        case refused
        /// It had none; ask it (`ROLE`) before sending.
        case check
    }

    let quarantine: Double
    private let lock = NSLock()
    private var downUntil: [RedisCluster.Node: Date] = [:]
    private var replicaCheckAt: [RedisCluster.Node: Date] = [:]

    init(quarantine: Double) {
        self.quarantine = quarantine
    }

    func isDown(_ node: RedisCluster.Node, now: Date = Date()) -> Bool {
        lock.withLock { (downUntil[node] ?? .distantPast) > now }
    }

    func markDown(_ node: RedisCluster.Node, now: Date = Date()) {
        lock.withLock { downUntil[node] = now.addingTimeInterval(quarantine) }
    }

    func markUp(_ node: RedisCluster.Node) {
        lock.withLock { _ = downUntil.removeValue(forKey: node) }
    }

    /// The nodes skipped now.
    func down(now: Date = Date()) -> Set<RedisCluster.Node> {
        lock.withLock { Set(downUntil.filter { $0.value > now }.keys) }
    }

    /// Whether `node` may take writes; `.check` is answered to one caller per `quarantine`, the others are refused.
    func writes(to node: RedisCluster.Node, now: Date = Date()) -> Writes {
        lock.withLock {
            guard let due = replicaCheckAt[node] else { return .allowed }
            guard due <= now else { return .refused }
            replicaCheckAt[node] = now.addingTimeInterval(quarantine)
            return .check
        }
    }

    func markWithoutReplica(_ node: RedisCluster.Node, now: Date = Date()) {
        lock.withLock { replicaCheckAt[node] = now.addingTimeInterval(quarantine) }
    }

    func markReplicated(_ node: RedisCluster.Node) {
        lock.withLock { _ = replicaCheckAt.removeValue(forKey: node) }
    }
}
