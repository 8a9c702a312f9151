import Foundation

/// A Redis Cluster of Debian's redis-server on loopback ports, for the tests and `make bench`: three masters and
/// three replicas in a temporary directory. Each server runs under a shell that ends it when this process's pipe
/// closes, so nothing outlives the process that started it.
public final class LocalRedisCluster: @unchecked Sendable {
    public static let nodeCount = 6

    public let ports: [Int]
    let directory: URL
    private var processes: [Process] = []
    private var pipes: [Pipe] = []

    public var url: String { "redis://" + ports.map { "127.0.0.1:\($0)" }.joined(separator: ",") }
    public var seeds: [RedisCluster.Node] { ports.map { RedisCluster.Node(host: "127.0.0.1", port: $0) } }

    /// Starts the six servers from `basePort` (below 22768: cluster bus ports are 10,000 up and must stay under the
    /// kernel's ephemeral range) and joins them into a cluster.
    public init(basePort: Int = 15_000 + Int(getpid() % 600) * 10) throws {
        let base = basePort
        ports = (0..<Self.nodeCount).map { base + $0 }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for port in ports { try start(port) }
        for port in ports { try waitFor("PING answered on \(port)") { (try? RedisConnection(host: "127.0.0.1", port: port).command(["PING"])) == .status("PONG") } }
        try run("/usr/bin/redis-cli", ["--cluster", "create"] + ports.map { "127.0.0.1:\($0)" } + ["--cluster-replicas", "1", "--cluster-yes"])
        try waitForHealthyCluster()
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
        try process.run()
        processes.append(process)
        pipes.append(pipe)
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
    private func waitFor(_ what: String, _ condition: () -> Bool) throws {
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
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw RedisFailure(description: "\(program) failed: \(text.suffix(400))") }
    }
}

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
