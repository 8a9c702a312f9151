import Foundation
import LiveMap
import MapScene
import RedisStore

/// Freshness on Redis Cluster: two `serve` replicas answering from their views, on the Redis bench's world (100,000
/// people, ~100 friends each), the reader serving layouts to 16 connections and the writer taking other people's
/// moves from 8 (wrk), while `bench/freshness.py` moves people through the writer and times, from the move's
/// sending, until their friends' layouts on the reader change. The anchor is the same probe with the layouts read
/// on the writer itself, in the same run; the goal is 100 ms at p99.
enum FreshnessBenchmark {
    static let pairs = 20
    static let probes = 200
    static let goalMilliseconds = 100.0
    static let loadSeconds = 25

    static func run() throws -> String {
        let world = try RedisBenchmark.world()
        let scene = try SceneLoader(dataDirectory: URL(fileURLWithPath: "Data")).load()
        let clock = ISO8601DateFormatter().string(from: scene.capturedAt)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-freshness-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cluster = try LocalRedisCluster()
        defer { cluster.stop() }
        let store = try RedisLiveStore(url: cluster.url)
        let tokens = SyntheticWorld.randomTokens(count: world.tokens)
        try SyntheticWorld(people: world.people, friendsEach: world.friendsEach, community: world.community, now: scene.capturedAt).load(into: store, tokens: tokens)
        let (pairsFile, quietFile) = try writePairs(store, tokens: tokens, now: scene.capturedAt, in: scratch)

        let writer = try ServedProcess(arguments: ["--clock", clock, "--store", cluster.url])
        let reader = try ServedProcess(arguments: ["--clock", clock, "--store", cluster.url])
        defer { [writer, reader].forEach { $0.stop() } }
        let anchor = try probe(writer: writer, reader: writer, pairsFile: pairsFile, quietFile: quietFile)
        let across = try probe(writer: writer, reader: reader, pairsFile: pairsFile, quietFile: quietFile)
        return String(format: "redis freshness: a move through one replica showed in another's layouts at p50 %.1f ms, p99 %.1f ms (largest %.1f; "
                      + "%d of %d within 2 s; %.2f× the %.0f ms goal), against p50 %.1f, p99 %.1f ms on the replica that took it (%.2f× its p99), "
                      + "while the reader served %.0f layouts/s and the writer %.0f others' moves/s",
                      across.p50, across.p99, across.largest, across.shown, probes, across.p99 / goalMilliseconds, goalMilliseconds,
                      anchor.p50, anchor.p99, across.p99 / anchor.p99, across.layouts, across.updates)
    }

    /// Pairs of a viewer and a mover they see (both with tokens), and the tokens of people who are neither a pair's
    /// mover nor anyone its viewer could see, whose moves load the writer without changing the probed layouts.
    static func writePairs(_ store: RedisLiveStore, tokens: [String], now: Date, in directory: URL) throws -> (URL, URL) {
        let live = LiveMapService(store: store)
        let index = Dictionary(uniqueKeysWithValues: tokens.indices.map { (LiveWorld.id($0), $0) })
        var pairs: [(Int, Int)] = []
        var near = Set<Int>()
        for viewer in tokens.indices where pairs.count < Self.pairs && !near.contains(viewer) {
            let mover = try live.visibleFriends(of: LiveWorld.id(viewer), at: now).compactMap { index[$0.person.id] }.first { !near.contains($0) }
            guard let mover else { continue }
            pairs.append((viewer, mover))
            near.formUnion([viewer, mover])
            near.formUnion(try store.candidates(of: LiveWorld.id(viewer)).compactMap { index[$0.person.id] })
        }
        guard pairs.count == Self.pairs else { throw BenchmarkFailure(message: "only \(pairs.count) viewers see a mover with a token") }
        let pairsFile = directory.appendingPathComponent("pairs.txt")
        let quietFile = directory.appendingPathComponent("quiet.txt")
        try pairs.map { "\(tokens[$0.0]) \(tokens[$0.1])\n" }.joined().write(to: pairsFile, atomically: true, encoding: .utf8)
        try tokens.indices.filter { !near.contains($0) }.map { tokens[$0] + "\n" }.joined().write(to: quietFile, atomically: true, encoding: .utf8)
        return (pairsFile, quietFile)
    }

    struct Probe {
        let p50, p99, largest, layouts, updates: Double
        let shown: Int
    }

    /// Runs the probe while wrk loads the reader with layouts and the writer with quiet people's moves.
    static func probe(writer: ServedProcess, reader: ServedProcess, pairsFile: URL, quietFile: URL) throws -> Probe {
        let results = LoadResults()
        let loads = [(reader.base + "/v1/me/layout.json", 16, "layouts", 0), (writer.base + "/v1/me/location", 8, "locations", 1)].map { url, connections, mode, slot in
            let thread = Thread {
                results.set(slot, Result { try ServeBenchmark.load(url, connections: connections, script: "bench/signed_in.lua",
                                                                  scriptArguments: [quietFile.path, mode], seconds: loadSeconds) })
            }
            thread.start()
            return thread
        }
        Thread.sleep(forTimeInterval: 1)
        let text = try BenchmarkProcess.run("python3", ["bench/freshness.py", writer.base, reader.base, pairsFile.path, String(probes)])
        while loads.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.1) }
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        guard let p50 = json["p50"] as? Double, let p99 = json["p99"] as? Double, let largest = json["max"] as? Double, let shown = json["shown"] as? Int else {
            throw BenchmarkFailure(message: "freshness.py printed \(text)")
        }
        return Probe(p50: p50, p99: p99, largest: largest, layouts: try results.get(0).requestsPerSecond, updates: try results.get(1).requestsPerSecond, shown: shown)
    }
}

/// The wrk results of loads run on threads of their own.
final class LoadResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Int: Result<ServeBenchmark.Load, any Error>] = [:]

    func set(_ slot: Int, _ result: Result<ServeBenchmark.Load, any Error>) { lock.withLock { results[slot] = result } }

    func get(_ slot: Int) throws -> ServeBenchmark.Load {
        guard let result = lock.withLock({ results[slot] }) else { throw BenchmarkFailure(message: "load \(slot) gave no result") }
        return try result.get()
    }
}
