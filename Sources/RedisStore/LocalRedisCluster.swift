import Foundation

/// A Redis Cluster of Debian's redis-server on loopback ports, for the tests and `make bench`: three masters with
/// one replica each (or more) in a temporary directory, configured as `deploy/` configures production: a master
/// refuses writes while it has no replica (`min-replicas-to-write 1`), and a shard that is down stops only its
/// own slots (`cluster-require-full-coverage no`). Each server runs under a shell that ends it when this
/// process's pipe closes (or `stop` closes it), so nothing outlives the process that started it.
public final class LocalRedisCluster: @unchecked Sendable {
    public static let masterCount = 3

    public let ports: [Int]
    public let replicasPerMaster: Int
    let directory: URL
    private let launch: @Sendable (Process) throws -> Void
    private let lock = NSLock()
    private var processes: [Process] = []
    private var pipes: [Pipe] = []

    public var url: String { "redis://" + ports.map { "127.0.0.1:\($0)" }.joined(separator: ",") }
    public var seeds: [RedisCluster.Node] { ports.map { RedisCluster.Node(host: "127.0.0.1", port: $0) } }

    /// Starts three masters with `replicasPerMaster` replicas each on consecutive ports from `basePort` (default: a
    /// free range below 22768, as bus ports are 10,000 up, under the ephemeral range) and joins them into a cluster.
    /// `launch` starts each process (the tests pass theirs, which starts one process at a time).
    public init(replicasPerMaster: Int = 1, basePort: Int? = nil, launch: @escaping @Sendable (Process) throws -> Void = { try $0.run() }) throws {
        self.replicasPerMaster = replicasPerMaster
        self.launch = launch
        let count = Self.masterCount * (1 + replicasPerMaster)
        let base = basePort ?? Self.freeBase(count: count)
        ports = (0..<count).map { base + $0 }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for port in ports { try start(port) }
        for port in ports { try waitFor("PING answered on \(port)") { (try? RedisConnection(host: "127.0.0.1", port: port).command(["PING"])) == .status("PONG") } }
        try run("/usr/bin/redis-cli", ["--cluster", "create"] + ports.map { "127.0.0.1:\($0)" } + ["--cluster-replicas", String(replicasPerMaster), "--cluster-yes"])
        try waitForHealthyCluster()
    }

    /// Ports handed out to clusters of this process, so that two started at once do not pick the same range.
    nonisolated(unsafe) private static var taken: Set<Int> = []
    private static let takenLock = NSLock()

    /// The first of `count` ports (and their bus ports) that nothing answers on, in blocks of ten from 15,000.
    static func freeBase(count: Int) -> Int {
        let blocks = (22_760 - count - 15_000) / 10
        let first = Int(getpid()) % blocks
        for offset in 0..<blocks {
            let base = 15_000 + (first + offset * 37) % blocks * 10
            let free = (base..<base + count).allSatisfy { port in
                [port, port + 10_000].allSatisfy { (try? RedisConnection(host: "127.0.0.1", port: $0, timeout: 0.2)) == nil }
            }
            guard free, takenLock.withLock({ taken.insert(base).inserted }) else { continue }
            return base
        }
        return 15_000 + first * 10
    }

    /// Starts (or restarts) the server of one port.
    public func start(_ port: Int) throws {
        let home = directory.appendingPathComponent(String(port))
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let config = """
            port \(port)
            bind 127.0.0.1
            protected-mode no
            cluster-enabled yes
            cluster-config-file nodes-\(port).conf
            cluster-node-timeout 1500
            cluster-replica-validity-factor 0
            cluster-require-full-coverage no
            min-replicas-to-write 1
            min-replicas-max-lag 2
            appendonly yes
            save ""
            dir \(home.path)
            logfile \(home.path)/redis.log
            """
        let file = directory.appendingPathComponent("redis-\(port).conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "/usr/bin/redis-server \"$0\" & pid=$!; cat > /dev/null; kill -9 $pid", file.path]
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try launch(process)
        lock.withLock {
            processes.append(process)
            pipes.append(pipe)
        }
    }

    /// Stops every server (kill -9) and removes their files.
    public func stop() {
        let (running, inputs) = lock.withLock { (processes, pipes) }
        for pipe in inputs { try? pipe.fileHandleForWriting.close() }
        for process in running { process.waitUntilExit() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every node answers, the cluster is ok, every slot has a master and every replica is in sync.
    public func waitForHealthyCluster() throws {
        try waitFor("a healthy cluster") {
            self.ports.allSatisfy { port in
                guard let connection = try? RedisConnection(host: "127.0.0.1", port: port),
                      let info = try? connection.command(["CLUSTER", "INFO"]).text, info.contains("cluster_state:ok"),
                      let replication = try? connection.command(["INFO", "replication"]).text else { return false }
                return replication.contains("role:master") ? true : replication.contains("master_link_status:up")
            }
        }
    }

    /// Every master has a replica online that acknowledged it within the last second, so writes, which need one
    /// (`min-replicas-to-write`), are taken (a replica just synced has not acknowledged yet).
    public func waitForGoodReplicas() throws {
        try waitFor("a replica acknowledging each master") {
            self.ports.allSatisfy { port in
                guard let replication = try? RedisConnection(host: "127.0.0.1", port: port).command(["INFO", "replication"]).text else { return false }
                guard replication.contains("role:master") else { return true }
                return replication.split(whereSeparator: \.isNewline).contains { $0.contains("state=online") && ($0.hasSuffix("lag=0") || $0.hasSuffix("lag=1")) }
            }
        }
    }

    /// Empties every master (for a suite that needs an empty store).
    public func flush() throws {
        for port in ports {
            let connection = try RedisConnection(host: "127.0.0.1", port: port)
            if let info = try connection.command(["INFO", "replication"]).text, info.contains("role:master") {
                _ = try connection.command(["FLUSHALL"])
            }
        }
    }

    /// Polls `condition` until it holds, for at most 60 s (servers start and elect in their own time).
    func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else { throw RedisFailure(description: "timed out waiting for \(what)") }
            usleep(50_000)
        }
    }

    private func run(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try launch(process)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw RedisFailure(description: "\(program) failed: \(text.suffix(400))") }
    }
}
