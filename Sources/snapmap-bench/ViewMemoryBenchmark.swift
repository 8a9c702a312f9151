import Foundation
import LiveMap
import MapScene
import Raster

/// The view's memory at 100,000, 300,000 and 1,000,000 people with ~100 friends each (`SNAPMAP_VIEW_MEMORY_PEOPLE`
/// to choose): each world built in memory from `SyntheticWorld` straight into a `LiveView` (no store holds it), its
/// lists cut to length as a load leaves them, and the anonymous resident memory it adds, measured with the heap's
/// free memory given back before and after. The anchor is the 2 GB goal at a million people.
enum ViewMemoryBenchmark {
    static let defaultSizes = [100_000, 300_000, 1_000_000]
    static let defaultPartitions = [1, 2, 4]
    static let friendsEach = 100
    static let goalBytesAtMillion = 2e9

    static func run() throws -> String {
        let scene = try SceneLoader(dataDirectory: URL(fileURLWithPath: "Data")).load()
        let sizes = ProcessInfo.processInfo.environment["SNAPMAP_VIEW_MEMORY_PEOPLE"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? defaultSizes
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-view-memory-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let empty = try SQLiteLiveStore(path: scratch.appendingPathComponent("empty.db").path)
        let lines = try sizes.map { people in
            let (bytes, seconds, _, _) = try measure(people: people, friendsEach: friendsEach, store: empty, now: scene.capturedAt)
            let perPerson = Double(bytes) / Double(people)
            return String(format: "view memory, %d people (~%d friends each, built in memory): %.0f bytes a person, %.2f GB (%.2f GB at 1 M: "
                          + "%.2f× the 2 GB goal); built in %.1f s", people, friendsEach, perPerson, Double(bytes) / 1e9, perPerson * 1e6 / 1e9,
                          perPerson * 1e6 / goalBytesAtMillion, seconds)
        }
        let largest = sizes.max() ?? 0
        let (facts, _, _, _) = try measure(people: largest, friendsEach: 0, store: empty, now: scene.capturedAt)
        return (lines + [String(format: "view memory without friendships, %d people: %.0f bytes a person (people, settings and fixes; the rest "
                                + "of each figure above is the asks and the index of who asked)", largest, Double(facts) / Double(max(largest, 1)))])
            .joined(separator: "\n")
    }

    /// `viewpartitions`: the view of partition 0 of P (`snapmap serve --partition 0/P`; P = 1, 2 and 4, or
    /// `SNAPMAP_VIEW_MEMORY_PARTITIONS`) of the 1,000,000-person world (or the largest `SNAPMAP_VIEW_MEMORY_PEOPLE`), each
    /// built as `run` builds the whole; the anchor is P = 1, the whole view, measured first in the same run.
    static func runPartitions() throws -> String {
        let scene = try SceneLoader(dataDirectory: URL(fileURLWithPath: "Data")).load()
        let people = ProcessInfo.processInfo.environment["SNAPMAP_VIEW_MEMORY_PEOPLE"].flatMap { $0.split(separator: ",").compactMap { Int($0) }.max() } ?? 1_000_000
        let counts = ProcessInfo.processInfo.environment["SNAPMAP_VIEW_MEMORY_PARTITIONS"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? defaultPartitions
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-view-partitions-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let empty = try SQLiteLiveStore(path: scratch.appendingPathComponent("empty.db").path)
        var whole: Int?
        var lines: [String] = []
        for count in counts.sorted() {
            do {
                let partition = try ViewPartition(index: 0, count: count, field: "SNAPMAP_VIEW_MEMORY_PARTITIONS")
                let (bytes, seconds, held, served) = try measure(people: people, friendsEach: friendsEach, store: empty, now: scene.capturedAt, partition: partition)
                if count == 1 { whole = bytes }
                let ratio = whole.map { String(format: "%.2f× the whole view", Double(bytes) / Double($0)) } ?? "no whole view measured"
                lines.append("view memory of partition \(partition), " + String(format: "%d people (~%d friends each): %.2f GB, ", people, friendsEach, Double(bytes) / 1e9)
                             + ratio + String(format: "; serves %d viewers, holds %d people (%.1f%%), %.0f bytes a viewer served; built in %.1f s",
                                              served, held, 100 * Double(held) / Double(people), Double(bytes) / Double(max(1, served)), seconds))
            } catch {
                lines.append("view memory of partition 0/\(count) failed: \(error)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The resident bytes a view of `people` (of `partition`'s viewers) adds, the seconds it took to build, the people
    /// it holds and the viewers it serves.
    static func measure(people: Int, friendsEach: Int, store: SQLiteLiveStore, now: Date, partition: ViewPartition? = nil) throws -> (Int, Double, Int, Int) {
        HeapTuning.returnFreeMemory()
        let before = ViewBenchmark.residentBytes()
        let view = LiveView(store: store, partition: partition)
        let seconds = try BenchmarkClock.best(of: 1) {
            try SyntheticWorld(people: people, friendsEach: friendsEach, community: 0, now: now).load(into: view, tokens: [])
            view.compact()
        }
        HeapTuning.returnFreeMemory()
        let bytes = ViewBenchmark.residentBytes() - before
        // A viewer the view serves (any other is answered by the store, empty here).
        let viewer = (people / 2..<people).lazy.map(LiveWorld.id).first(where: view.serves) ?? LiveWorld.id(people / 2)
        let friends = try view.candidates(of: viewer).count
        let seen = try LiveMapService(store: view).visibleFriends(of: viewer, at: now).count
        guard friendsEach == 0 || (friends > friendsEach / 2 && seen > 0) else {
            throw BenchmarkFailure(message: "the view built of \(people) people has nobody's friends")
        }
        return (bytes, seconds, view.heldPeople, (0..<people).count(where: { view.serves(LiveWorld.id($0)) }))
    }
}
