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

    /// Asks every master of the slot map at once; when none is ok, reads the slot map again (within `probeTimeout`)
    /// and asks the masters it names that were not asked: a map that a failover or a restart left behind, which
    /// requests correct slot by slot as they are redirected, never keeps readiness from saying they are served.
    /// Unavailable with the first fault (no address: the answer is public) when no master is ok.
    private func probe() -> StoreHealth {
        let known = Self.masters(cluster.map)
        var faults = Self.faults(of: known)
        if !faults.contains(where: { $0 == nil }) {
            try? cluster.refresh(within: Self.probeTimeout)
            faults += Self.faults(of: Self.masters(cluster.map).filter { !known.contains($0) })
        } else if faults.contains(where: { $0 != nil }) {
            cluster.refreshIfDue()
        }
        if faults.contains(where: { $0 == nil }) { return .ready }
        return .unavailable(reason: "redis: \(faults.compactMap { $0 }.first ?? "no master is known")")
    }

    /// The distinct masters of a slot map, in a stable order.
    private static func masters(_ map: [RedisCluster.Node?]) -> [RedisCluster.Node] {
        Set(map.compactMap { $0 }).sorted { $0.description < $1.description }
    }

    /// Each of `masters`' fault (nil: ok), all asked at once.
    private static func faults(of masters: [RedisCluster.Node]) -> [String?] {
        let faults = Faults(count: masters.count)
        DispatchQueue.concurrentPerform(iterations: masters.count) { index in
            faults.set(index, fault(of: masters[index]))
        }
        return faults.all
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

        func set(_ index: Int, _ fault: String?) {
            lock.withLock { faults[index] = fault }
        }

        var all: [String?] { lock.withLock { faults } }
    }
}
