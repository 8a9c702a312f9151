import Foundation
import LiveMap

/// Streams cannot hurt each other: a healthy viewer's events (the time from a friend's location update to its
/// `move` on the viewer's stream) with 1,000 event streams open that never read (125 viewers, 8 streams each, all
/// friends of the mover), against the same viewer with none open, in the same run; the goal is p99 ≤ 50 ms.
enum StreamsBenchmark {
    static let slowViewers = 125
    static let probes = 100
    static let goalP99 = 50.0

    static func token(_ index: Int) -> String { String(format: "%064x", 0xB_E4C4_0000 + index) }

    static func run() throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-streams-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = scratch.appendingPathComponent("live.db").path
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let ids = (0...slowViewers + 1).map { PersonID(trusted: "s\($0)") }
        let sharing = SharingSettings(ghost: .off, audience: .friends)
        try SQLiteLiveStore(path: database, synchronous: false).bulkLoad(
            people: try ids.map { (try Person(id: $0, name: "Streamer \($0)", color: "#0EADFF"), sharing) },
            asks: ids.dropFirst().flatMap { [(from: ids[0], to: $0, details: FriendDetails()), (from: $0, to: ids[0], details: FriendDetails())] },
            fixes: [(ids[0], try LocationFix(lat: 40.70, lon: -73.95, accuracyMeters: 5, takenAt: now))],
            tokenHashes: ids.indices.map { (LiveMapService.tokenHash(token($0)), ids[$0]) })
        let server = try ServedProcess(arguments: ["--db", database, "--clock", ISO8601DateFormatter().string(from: now.addingTimeInterval(60))])
        defer { server.stop() }
        let port = String(URL(string: server.base)?.port ?? 0)
        func measure(_ viewers: Int) throws -> [String: Any] {
            let file = scratch.appendingPathComponent("slow-\(viewers).txt")
            try Data((2..<viewers + 2).map(token).joined(separator: "\n").utf8).write(to: file)
            let text = try BenchmarkProcess.run(BenchmarkProcess.debianPython, ["Tests/tools/slow_streams.py", "127.0.0.1", port, file.path, "8",
                                                                                token(1), token(0), String(probes)])
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        }
        let alone = try measure(0)
        let crowded = try measure(slowViewers)
        let p99 = crowded["p99Ms"] as? Double ?? .nan, aloneP99 = alone["p99Ms"] as? Double ?? .nan
        return String(format: "streams: a healthy viewer's moves beside %d streams that never read: p50 %.1f ms, p99 %.1f ms, %d of %d missed "
                      + "(%.2f× the p99 of %.1f ms with none open; %.2f× the %.0f ms goal)",
                      crowded["slowStreams"] as? Int ?? 0, crowded["p50Ms"] as? Double ?? .nan, p99, crowded["missed"] as? Int ?? 0, probes,
                      p99 / aloneP99, aloneP99, goalP99 / p99, goalP99)
    }
}
