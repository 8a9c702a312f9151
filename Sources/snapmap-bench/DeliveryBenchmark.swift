import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import Orders
import Parallel
import Routing

/// Live delivery, the two goals of issue 30: Dasher fixes matched a second on 2 cores a fix at a time, and taken
/// through a live order's whole path (`DriveTracker.add`: matched after the Dasher's earlier fixes, the remaining
/// route routed afresh, the ETA), against snapping each fix to its nearest road on the same 2 cores in the same run
/// (goal ≥ 10,000/s); and the time from a Dasher's `PUT /v1/me/location` to its `order` event (matched position
/// and ETA) on the customer's stream, measured from outside the server, against a friend's move reaching a viewer's
/// stream on the same server (the live map's own path; goal p99 ≤ 50 ms).
enum DeliveryBenchmark {
    static let goalRate = 10_000.0
    static let goalP99 = 50.0
    static let workers = 2

    static func run() throws -> String {
        let paths = DataPaths(dataDirectory: URL(fileURLWithPath: "Data"))
        let router = try Router(streets: paths.loadBaseMap().streets, speedsFile: paths.streetSpeedsFile)
        return try throughput(router) + "\n" + latency(router)
    }

    /// 20 seeded drives of 1–10 km across Brooklyn, a fix every 5 s at 5–30 m with 2% jumps, each fix taken into its
    /// order's tracker; half the drives on each of two workers.
    static func throughput(_ router: Router) throws -> String {
        var random = SplitMix64(seed: 30)
        var drives: [(route: Route, fixes: [TraceFix])] = []
        while drives.count < 20 {
            let from = try Coordinate(lat: 40.571 + random.unit() * 0.168, lon: -74.042 + random.unit() * 0.187)
            let to = try Coordinate(lat: 40.571 + random.unit() * 0.168, lon: -74.042 + random.unit() * 0.187)
            guard let route = try? router.route(from: from, to: to), (1_000...10_000).contains(route.length) else { continue }
            drives.append((route, SimulatedDrive(route: route, router: router, interval: 5, accuracy: 5 + random.unit() * 25, jumpChance: 0.02,
                                                 random: &random).fixes))
        }
        let fixCount = Double(drives.reduce(0) { $0 + $1.fixes.count })
        let tracked = BenchmarkClock.best(of: 3) {
            _ = ParallelFor.map(workers) { worker -> Int in
                var (matcher, search, count) = (MapMatcher(router: router), RouteSearch(nodeCount: router.graph.nodeCount), 0)
                for drive in drives.indices where drive % workers == worker {
                    let line = drives[drive].route.coordinates
                    guard let from = try? router.position(of: line[0], field: "from"), let to = try? router.position(of: line[line.count - 1], field: "to"),
                          var tracker = DriveTracker(router: router, from: from, to: to, search: &search) else { continue }
                    for fix in drives[drive].fixes where tracker.add(fix, matcher: &matcher, search: &search) { count += 1 }
                }
                return count
            }
        }
        let matched = BenchmarkClock.best(of: 3) {
            _ = ParallelFor.map(workers) { worker -> Int in
                var (matcher, count) = (MapMatcher(router: router), 0)
                for drive in drives.indices where drive % workers == worker {
                    var chain = MatchChain()
                    for fix in drives[drive].fixes where matcher.follow(fix, chain: &chain) != nil { count += 1 }
                }
                return count
            }
        }
        let nearest = BenchmarkClock.best(of: 3) {
            _ = ParallelFor.map(workers) { worker -> Int in
                drives.indices.filter { $0 % workers == worker }.reduce(0) { sum, drive in
                    sum + drives[drive].fixes.filter { router.index.nearest(to: $0.point, radius: 100) != nil }.count
                }
            }
        }
        let (rate, matchRate) = (fixCount / tracked, fixCount / matched)
        return "delivery: \(Int(matchRate)) Dasher fixes matched/s on \(workers) cores, a fix at a time (\(Int(fixCount)) fixes): "
            + "\(BenchmarkClock.format(matchRate / goalRate))× the 10,000/s goal; \(Int(rate))/s through the live order's whole tracker (matched, "
            + "re-routed, ETA), \(BenchmarkClock.format(rate / goalRate))×; nearest road alone \(Int(fixCount / nearest))/s, "
            + "\(BenchmarkClock.format(nearest / matched))× the matched rate"
    }

    static func token(_ index: Int) -> String { String(format: "%064x", 0xDE_11FE_0000 + index) }

    /// A server on a new store holding a picked-up order (Sakura in Bay Ridge to the seed's home, about 6 km) and two
    /// friends; a simulated Dasher (a fix every 5 s, 10 m, no jumps) drives it through HTTP, paced under the rate limit.
    static func latency(_ router: Router) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-delivery-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = scratch.appendingPathComponent("live.db").path
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let ids = ["customer", "dasher", "viewer", "mover"].map { PersonID(trusted: $0) }
        let sharing = SharingSettings(ghost: .off, audience: .friends)
        let live = try SQLiteLiveStore(path: database, synchronous: false)
        try live.bulkLoad(people: try ids.map { (try Person(id: $0, name: $0.rawValue, color: "#0EADFF"), sharing) },
                          asks: [(from: ids[2], to: ids[3], details: FriendDetails()), (from: ids[3], to: ids[2], details: FriendDetails())],
                          fixes: [(ids[3], try LocationFix(lat: 40.71, lon: -73.95, accuracyMeters: 5, takenAt: now.addingTimeInterval(-3600)))],
                          tokenHashes: ids.indices.map { (LiveMapService.tokenHash(token($0)), ids[$0]) })
        let (store, home) = (try Coordinate(lat: 40.63446, lon: -74.02317), try Coordinate(lat: 40.67015, lon: -73.98549))
        let book = OrderBook(store: live)
        let order = try Order(id: OrderID("bench-1"), storeName: "Sakura", customer: ids[0], dasher: ids[1], items: ["Rolls"], at: now.addingTimeInterval(-2000))
        try book.create(StoredOrder(order, from: store, to: home))
        try book.apply(.confirm, to: order.id, at: now.addingTimeInterval(-1900))
        try book.apply(.pickup, to: order.id, at: now.addingTimeInterval(-1800))
        var random = SplitMix64(seed: 30)
        let drive = SimulatedDrive(route: try router.route(from: store, to: home), router: router, interval: 5, accuracy: 10, jumpChance: 0, random: &random)
        let formatter = ISO8601DateFormatter()
        let fixes = drive.fixes.map { fix -> String in
            let at = WebMercator.unprojectUnchecked(fix.point)
            return "\(at.lat) \(at.lon) \(formatter.string(from: now.addingTimeInterval(-1700 + fix.time)))"
        }
        let file = scratch.appendingPathComponent("fixes.txt")
        try Data(fixes.joined(separator: "\n").utf8).write(to: file)
        let server = try ServedProcess(arguments: ["--db", database, "--clock", formatter.string(from: now)])
        defer { server.stop() }
        let port = String(URL(string: server.base)?.port ?? 0)
        let text = try BenchmarkProcess.run(BenchmarkProcess.debianPython, ["Tests/tools/order_latency.py", "127.0.0.1", port, token(0), token(1),
                                                                            file.path, token(2), token(3), order.id.rawValue])
        let answer = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        let (order99, move99) = ((answer["order"] as? [String: Any])?["p99Ms"] as? Double ?? .nan, (answer["move"] as? [String: Any])?["p99Ms"] as? Double ?? .nan)
        let missed = (answer["order"] as? [String: Any])?["missed"] as? Int ?? -1
        return String(format: "delivery: a Dasher's fix to its customer's stream as matched position and ETA, %d fixes over HTTP: p50 %.1f ms, p99 %.1f ms, "
                      + "%d missed (%.2f× the 50 ms goal; %.2f× the p99 of %.1f ms for a friend's move on the same server)",
                      fixes.count, (answer["order"] as? [String: Any])?["p50Ms"] as? Double ?? .nan, order99, missed, goalP99 / order99, move99 / order99, move99)
    }
}
