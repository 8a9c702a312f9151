import Foundation
import LiveMap

/// Readiness on Redis Cluster: ready when a master of the slot map answers `CLUSTER INFO` with `cluster_state:ok`
/// and has a replica online, within `probeTimeout` (every master is asked at once). A shard that is down stops only its own slots
/// (`cluster-require-full-coverage no`), so one lost master leaves the replica ready for everyone else: were it
/// unready, every replica would leave service together and nobody would be answered. The answer is kept `keptFor`
/// seconds and one probe runs at a time (the others get the last answer), so frequent probes cost the cluster little.
final class RedisReadiness: @unchecked Sendable {
    /// The longest one master may take to connect and answer.
    static let probeTimeout = 0.25
    /// How long an answer is reused.
    static let keptFor = 1.0

    private let cluster: RedisCluster
    private let lock = NSLock()
    private var last: (health: StoreHealth, at: UInt64)?
    private var probing = false

    init(cluster: RedisCluster) {
        self.cluster = cluster
    }

    /// The kept answer while it is fresh (or while another caller probes), else a new probe's.
    func health() -> StoreHealth {
        let now = DispatchTime.now().uptimeNanoseconds
        let kept: StoreHealth? = lock.withLock {
            if let last, Double(now &- last.at) / 1e9 < Self.keptFor { return last.health }
            if probing, let last { return last.health }
            probing = true
            return nil
        }
        if let kept { return kept }
        let health = probe()
        lock.withLock {
            last = (health, DispatchTime.now().uptimeNanoseconds)
            probing = false
        }
        return health
    }

    /// Asks every master of the slot map at once; unavailable with the first fault (no address: the answer is public)
    /// when none is ok. A master that did not answer has the slot map read again, for the next probe.
    private func probe() -> StoreHealth {
        let masters = Set(cluster.map.compactMap { $0 }).sorted { $0.description < $1.description }
        let faults = Faults(count: masters.count)
        DispatchQueue.concurrentPerform(iterations: masters.count) { index in
            faults.set(index, Self.fault(of: masters[index]))
        }
        if faults.someFault { cluster.refreshIfDue() }
        if faults.someOk { return .ready }
        return .unavailable(reason: "redis: \(faults.first ?? "no master is known")")
    }

    /// Why `node` cannot serve its slots now; nil when it answers that the cluster is ok and has a replica in step
    /// (a write waits for one: without it, every write to its slots is refused, as just after the whole cluster
    /// restarted, while the replicas synchronise).
    private static func fault(of node: RedisCluster.Node) -> String? {
        do {
            let connection = try RedisConnection(host: node.host, port: node.port, timeout: probeTimeout)
            guard try connection.command(["CLUSTER", "INFO"]).text?.contains("cluster_state:ok") == true else {
                return "a master says the cluster is not ok"
            }
            let replication = try connection.command(["INFO", "replication"]).text ?? ""
            let inStep = replication.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("slave") && $0.contains("state=online") }
            return inStep ? nil : "a master has no replica in step yet (its writes are refused)"
        } catch {
            return "a master did not answer within \(probeTimeout) s"
        }
    }

    /// Each master's fault, written from the probing threads.
    private final class Faults: @unchecked Sendable {
        private let lock = NSLock()
        private var faults: [String?]

        init(count: Int) {
            faults = Array(repeating: nil, count: count)
        }

        /// Some master answered ok.
        var someOk: Bool { lock.withLock { faults.contains { $0 == nil } } }
        /// Some master did not.
        var someFault: Bool { lock.withLock { faults.contains { $0 != nil } } }

        func set(_ index: Int, _ fault: String?) {
            lock.withLock { faults[index] = fault }
        }

        var first: String? { lock.withLock { faults.compactMap { $0 }.first } }
    }
}
