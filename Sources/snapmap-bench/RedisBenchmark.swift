import Foundation
import LiveMap
import MapEngine
import MapScene
import RedisStore
import Parallel

/// The live store beyond one machine: a 3-master, 3-replica Redis Cluster started here, a world of 100,000 people
/// with about 100 friends each (`SNAPMAP_REDIS_PEOPLE` and `SNAPMAP_REDIS_FRIENDS` set others) loaded into it and into
/// SQLite, and the same HTTP loads against one and two stateless replicas on the cluster and against SQLite; memory a
/// person, what `WAIT 1` adds, and how long updates answered 503 while a master failed over. Each step on its own: one
/// that fails says why on its line and the others still run.
enum RedisBenchmark {
    typealias World = (people: Int, friendsEach: Int, community: Int, tokens: Int)

    /// The world's size: the live bench's (100,000 people with ~100 friends each, the world the view's goals name)
    /// unless the environment names others.
    static func world() throws -> World {
        (people: try BenchmarkSetting.integer("SNAPMAP_REDIS_PEOPLE", default: LiveBenchmark.shape.people, in: 5_000...1_000_000),
         friendsEach: try BenchmarkSetting.integer("SNAPMAP_REDIS_FRIENDS", default: LiveBenchmark.shape.friendsEach, in: 1...500),
         community: LiveBenchmark.shape.community, tokens: LiveBenchmark.shape.tokens)
    }

    static func run() throws -> String {
        let world = try world()
        let scene = try SceneLoader(dataDirectory: URL(fileURLWithPath: "Data")).load()
        let clock = ISO8601DateFormatter().string(from: scene.capturedAt)
        let generator = LiveWorld(people: world.people, friendsEach: world.friendsEach, community: world.community, tokens: world.tokens, now: scene.capturedAt)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-redis-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let tokenFile = scratch.appendingPathComponent("tokens.txt")
        let database = scratch.appendingPathComponent("live.db").path
        let buildTime = try BenchmarkClock.best(of: 1) { try generator.copy(to: database, tokenFile: tokenFile, cache: URL(fileURLWithPath: ".build/bench-cache")) }
        let cluster = try LocalRedisCluster()
        defer { cluster.stop() }
        let store = try RedisLiveStore(url: cluster.url)
        let loadTime = try BenchmarkClock.best(of: 1) { try generator.load(into: store, tokenFile: tokenFile) }

        let steps = BenchmarkSteps()
        let sqlite = steps.run("SQLite replica") { try replicas(1, arguments: ["--db", database], clock: clock, tokenFile: tokenFile) }
        let one = steps.run("one replica") { try replicas(1, arguments: ["--store", cluster.url], clock: clock, tokenFile: tokenFile) }
        let two = steps.run("two replicas") { try replicas(2, arguments: ["--store", cluster.url], clock: clock, tokenFile: tokenFile) }
        let kept = steps.run("kept answers") {
            let server = try ServedProcess(arguments: ["--clock", clock, "--store", cluster.url])
            defer { server.stop() }
            return (try LayoutLoads.measure(server, tokens: tokenFile, scratch: scratch, atGoals: true), server.readyAfter)
        }
        let storePath = steps.run("layouts from the store") {
            let server = try ServedProcess(arguments: ["--clock", clock, "--store", cluster.url, "--no-view"])
            defer { server.stop() }
            return try concurrent([(server.base + "/v1/me/layout.json", "layouts")], tokenFile: tokenFile)
        }
        let memory = steps.run("memory") { try memoryPerPerson(cluster, people: world.people) }
        let wait = steps.run("WAIT 1") { try waitCost(cluster) }
        let failover = steps.run("failover") { try failoverWindow(cluster, clock: clock, tokenFile: tokenFile) }
        func rates(_ kind: String, _ rate: ((updates: Double, layouts: Double)) -> Double) -> String {
            BenchmarkSteps.line("redis \(kind)") {
                let sqliteRate = (try? sqlite.get()).map { String(format: "%.0f/s", rate($0)) } ?? "failed"
                return String(format: "redis %@: one replica %.0f/s, two replicas %.0f/s; SQLite %@", kind, rate(try one.get()), rate(try two.get()), sqliteRate)
            }
        }
        return try steps.report([
            String(format: "redis world: %d people, ~%d friends each, ready in SQLite in %.1f s (built once into .build/bench-cache), loaded into the cluster in %.1f s",
                   world.people, world.friendsEach, buildTime, loadTime),
            rates("updates over HTTP") { $0.updates },
            rates("/v1/me/layout.json") { $0.layouts },
            BenchmarkSteps.line("redis kept answers") {
                let (loads, readyAfter) = try kept.get()
                let store = (try? storePath.get()).map { String(format: "; the store path (--no-view) %.0f/s: kept answers %.2f×", $0, loads.layouts.requestsPerSecond / $0) } ?? ""
                return String(format: "redis /v1/me/layout.json, one replica, kept answers (its view current %.1f s after it listened, then one pass that keeps them): "
                              + "%.0f/s, p99 %.1f ms", readyAfter, loads.layouts.requestsPerSecond, loads.layouts.load.p99Milliseconds) + loads.layouts.costs + store + loads.pacedText
                    + String(format: "; revalidations %.0f/s, p99 %.1f ms", loads.revalidations.requestsPerSecond, loads.revalidations.load.p99Milliseconds) + loads.wideText
            },
            BenchmarkSteps.line("redis memory a person") {
                String(format: "redis memory a person: %.0f bytes (MEMORY USAGE of a person's keys, 200 sampled; masters only, replicas hold as much again)", try memory.get())
            },
            BenchmarkSteps.line("redis WAIT 1") {
                let wait = try wait.get()
                return String(format: "redis WAIT 1 adds %.2f ms to a write (median of 500: %.2f ms with, %.2f ms without)", wait.with - wait.without, wait.with, wait.without)
            },
            BenchmarkSteps.line("redis failover") {
                let failover = try failover.get()
                return String(format: "redis failover: with a master killed, the longest update took %.1f s; %d of %d answered 503 (at once, while its shard fails "
                              + "over and, one replica each here, until the killed node is back as a replica)", failover.seconds, failover.errors, failover.requests)
            },
        ])
    }

    /// Sums the request rates of wrk runs against several replicas at once.
    static func concurrent(_ targets: [(url: String, mode: String)], tokenFile: URL) throws -> Double {
        let results = ParallelFor.map(targets) { target in
            try ServeBenchmark.load(target.url, connections: 32, script: "bench/signed_in.lua", scriptArguments: [tokenFile.path, target.mode]).requestsPerSecond
        }
        return try results.reduce(0) { $0 + (try $1.get()) }
    }

    /// Layouts and updates a second through `count` servers started with `arguments`, loaded at once.
    static func replicas(_ count: Int, arguments: [String], clock: String, tokenFile: URL) throws -> (updates: Double, layouts: Double) {
        let servers = try (0..<count).map { _ in try ServedProcess(arguments: ["--clock", clock] + arguments) }
        defer { servers.forEach { $0.stop() } }
        let layouts = try concurrent(servers.map { ($0.base + "/v1/me/layout.json", "layouts") }, tokenFile: tokenFile)
        let updates = try concurrent(servers.map { ($0.base + "/v1/me/location", "locations") }, tokenFile: tokenFile)
        return (updates, layouts)
    }

    static func memoryPerPerson(_ cluster: LocalRedisCluster, people: Int) throws -> Double {
        let redis = try RedisCluster(seeds: cluster.seeds)
        let ids = (0..<200).map { "p\($0 * 97 % people)" }
        let keys = ids.flatMap { id in ["{p:\(id)}", "{p:\(id)}:fix", "{p:\(id)}:asks", "{p:\(id)}:askedby"] }
        let replies = try redis.run(keys.map { ["MEMORY", "USAGE", $0] })
        return Double(replies.compactMap(\.integer).reduce(0, +)) / Double(ids.count)
    }

    static func waitCost(_ cluster: LocalRedisCluster) throws -> (with: Double, without: Double) {
        let redis = try RedisCluster(seeds: cluster.seeds)
        func median(durable: Bool) throws -> Double {
            var times: [Double] = []
            for index in 0..<500 {
                times.append(try BenchmarkClock.best(of: 1) { _ = try redis.run([["SET", "{bench}:wait", String(index)]], durable: durable) })
            }
            return times.sorted()[times.count / 2] * 1000
        }
        return (try median(durable: true), try median(durable: false))
    }

    /// Sends updates from many people through a replica while the master of one person's slot is killed: the
    /// longest any update took and how many were refused with 503.
    static func failoverWindow(_ cluster: LocalRedisCluster, clock: String, tokenFile: URL) throws -> (seconds: Double, errors: Int, requests: Int) {
        let server = try ServedProcess(arguments: ["--clock", clock, "--store", cluster.url])
        defer { server.stop() }
        let victim = try cluster.master(of: "{p:p0}:fix")
        let killer = Thread {
            Thread.sleep(forTimeInterval: 1)
            try? cluster.kill(victim)
        }
        killer.start()
        let load = try ServeBenchmark.load(server.base + "/v1/me/location", connections: 16, script: "bench/signed_in.lua",
                                           scriptArguments: [tokenFile.path, "locations"], seconds: 8)
        try cluster.waitForFailover(from: victim)
        try cluster.start(victim)
        try cluster.waitForHealthyCluster()
        return (load.maxMilliseconds / 1000, load.errors, load.requests)
    }
}
