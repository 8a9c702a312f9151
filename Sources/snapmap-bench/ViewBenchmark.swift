import Foundation
import LiveMap
import MapScene

/// The in-memory view of the live state (`LiveView`) in this process, on the live bench's worlds (about 100
/// friends each) at 100,000 and 300,000 people (`SNAPMAP_VIEW_PEOPLE` to choose, e.g. 1000000): how long it takes
/// to load from the SQLite store, the memory it adds per person (anonymous resident memory before and after), and what a
/// viewer sees (every friend through the rule) read from the view against read from the store, in the same run.
enum ViewBenchmark {
    static let defaultSizes = [100_000, 300_000]
    static let viewers = 5_000

    static func run() throws -> String {
        let scene = try SceneLoader(dataDirectory: URL(fileURLWithPath: "Data")).load()
        let sizes = ProcessInfo.processInfo.environment["SNAPMAP_VIEW_PEOPLE"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? defaultSizes
        return try sizes.map { try measure(people: $0, now: scene.capturedAt) }.joined(separator: "\n")
    }

    static func measure(people: Int, now: Date) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-view-bench-\(getpid())-\(people)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = scratch.appendingPathComponent("live.db").path
        let world = LiveWorld(people: people, friendsEach: LiveBenchmark.shape.friendsEach, community: LiveBenchmark.shape.community,
                              tokens: LiveBenchmark.shape.tokens, now: now)
        try world.copy(to: database, tokenFile: scratch.appendingPathComponent("tokens.txt"), cache: URL(fileURLWithPath: ".build/bench-cache"))
        let store = try SQLiteLiveStore(path: database)
        let view = LiveView(store: store)
        let before = residentBytes()
        let loadSeconds = try BenchmarkClock.best(of: 1) { try view.load() }
        let perPerson = Double(residentBytes() - before) / Double(people)
        let ids = (0..<viewers).map { LiveWorld.id($0 * (people / viewers)) }
        let fromView = try answersPerSecond(LiveMapService(store: view), ids, now: now)
        let fromStore = try answersPerSecond(LiveMapService(store: store), ids, now: now)
        return String(format: "view of %d people (~%d friends each): loaded in %.1f s, %.0f bytes a person (anonymous resident memory before and after; "
                      + "%.2f GB at 1 M); a viewer's friends through the rule: %.0f/s from the view, %.0f/s from the store: %.1f× (%d viewers, one thread)",
                      people, LiveBenchmark.shape.friendsEach, loadSeconds, perPerson, perPerson * 1e6 / 1e9, fromView, fromStore, fromView / fromStore, viewers)
    }

    /// Viewers answered a second by `visibleFriends`, over at least two seconds, after one pass to warm up.
    static func answersPerSecond(_ live: LiveMapService, _ ids: [PersonID], now: Date) throws -> Double {
        var seen = 0
        for id in ids { seen += try live.visibleFriends(of: id, at: now).count }
        var answered = 0
        let seconds = try BenchmarkClock.best(of: 1) {
            let clock = ContinuousClock()
            let start = clock.now
            while clock.now - start < .seconds(2) {
                for id in ids.prefix(500) { seen += try live.visibleFriends(of: id, at: now).count }
                answered += 500
            }
        }
        guard seen > 0 else { throw BenchmarkFailure(message: "nobody sees anyone") }
        return Double(answered) / seconds
    }

    /// This process's anonymous resident memory (RssAnon of /proc/self/status): the heap, without the store's file
    /// pages that SQLite maps (they are the page cache's, and shared).
    static func residentBytes() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("RssAnon:") } ?? ""
        return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
    }
}
