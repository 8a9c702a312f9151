import Foundation
import GeoCore
import MapEngine
import MapScene
import PinLayout

/// Pin layout for the scene's 8 friends, 10,000, 100,000 and 1,000,000 synthetic pins (the million against its
/// 1 s goal, supercluster's time to index as many), each grouped afresh (with its layout's digest, which builds that
/// lay out alike share) and again with its grouping kept (another zoom and centre over the same friends), and a
/// million hit tests against the 100,000-pin layout. A layout runs on one thread: its figure is that thread's CPU
/// time (the wall time beside it swells with whatever shares the cores).
/// Layout times are shown against the 100 ms goal (MapLibre's placement benchmark,
/// about 90–100 ms for 20,000 symbols, cannot run here); hit tests against a linear scan of every target
/// in the same run.
enum LayoutBenchmark {
    static let names = ["Jordan", "Maya", "Theo", "Priya", "Leo", "Noah", "Ava", "Eli", "Zoe", "Omar", "Lena", "Kai", "Iris", "Ravi", "Nina", "Sam"]
    static let goal = 0.1

    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let scene = engine.scene
        let pins = engine.pinEngine(scale: scene.viewport.scale)
        var lines: [String] = []
        let eight = engine.subjects(scene.friends)
        let sceneTime = BenchmarkClock.best(of: 20) { _ = pins.layout(subjects: eight, viewport: scene.viewport, now: scene.capturedAt) }
        lines.append(BenchmarkClock.report("layout of the scene's \(eight.count) friends", ours: sceneTime, anchor: goal, anchorName: "the 100 ms goal"))
        var layout100k: PinLayoutResult?
        for count in [10_000, 100_000, 1_000_000] {
            let (report, result) = try synthetic(count: count, engine: pins, viewport: scene.viewport, now: scene.capturedAt)
            lines.append(report)
            if count == 100_000 { layout100k = result }
        }
        guard let layout = layout100k else { return lines.joined(separator: "\n") }
        lines.append(hitReport(layout, style: engine.pinLook.layout))
        return lines.joined(separator: "\n")
    }

    /// `layout-pins`: the 100,000 and 1,000,000 synthetic pins alone (no scene, no hit tests), for runs repeated
    /// many times to compare two builds.
    static func runPins() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let pins = engine.pinEngine(scale: engine.scene.viewport.scale)
        return try [100_000, 1_000_000].map { try synthetic(count: $0, engine: pins, viewport: engine.scene.viewport, now: engine.scene.capturedAt).report }
            .joined(separator: "\n")
    }

    /// The two lines of `count` synthetic pins (grouped afresh, and kept) and the last layout made.
    private static func synthetic(count: Int, engine pins: PinLayoutEngine, viewport: Viewport, now: Date) throws -> (report: String, layout: PinLayoutResult?) {
        let subjects = synthetic(count: count, now: now)
        let (anchor, anchorName) = count == 1_000_000 ? (1.0, "the 1 s goal") : (goal, "the 100 ms goal")
        // Afresh: the friends grouped at every zoom in each layout, as for a set of friends seen the first time.
        let fresh = PinLayoutEngine(style: pins.style, measurer: pins.measurer)
        var result: PinLayoutResult?
        let cold = BenchmarkClock.bestWallAndThreadCPU(of: 3) { result = fresh.layout(subjects: subjects, viewport: viewport, now: now) }
        let placed = (result?.pins.filter { $0.visible && $0.groupId == nil }.count ?? 0) + (result?.groups.count ?? 0)
        let digest = try result.map(digest) ?? 0
        let afresh = BenchmarkClock.report("layout of \(count) synthetic pins, grouped afresh (\(placed) placed pins and groups, digest \(String(digest, radix: 16)); wall \(BenchmarkClock.format(cold.wall)) s), CPU",
                                           ours: cold.cpu, anchor: anchor, anchorName: anchorName)
        // Kept: the same friends again at another zoom and centre, their grouping made once (as supercluster's index is).
        let kept = PinLayoutEngine(style: pins.style, measurer: pins.measurer, groupings: GroupingCache(maxSubjects: count))
        _ = kept.layout(subjects: subjects, viewport: viewport, now: now)
        let moved = try viewport.with(Camera(center: Coordinate(lat: 40.7205, lon: -73.9500), zoom: 15.5))
        let warm = BenchmarkClock.bestWallAndThreadCPU(of: 3) { result = kept.layout(subjects: subjects, viewport: moved, now: now) }
        let again = BenchmarkClock.report("layout of \(count) synthetic pins, grouping kept (wall \(BenchmarkClock.format(warm.wall)) s), CPU", ours: warm.cpu,
                                          anchor: anchor, anchorName: anchorName)
        return (afresh + "\n" + again, result)
    }

    static func synthetic(count: Int, now: Date) -> [PinSubject] {
        var random = SplitMix64(seed: 21)
        return (0..<count).map { index in
            let coordinate = try! Coordinate(lat: Double.random(in: 40.700...40.728, using: &random), lon: Double.random(in: -73.972 ... -73.930, using: &random))
            return PinSubject(id: "s\(index)", name: names[index % names.count] + " S", coordinate: coordinate,
                              lastSeen: now.addingTimeInterval(-Double.random(in: 0...86_400, using: &random)),
                              snapstreak: Int.random(in: 0...400, using: &random), bestFriend: index % 5 == 0)
        }
    }

    /// FNV-1a of the layout's JSON (keys sorted): the same for two builds that lay the pins out byte for byte alike.
    static func digest(_ layout: PinLayoutResult) throws -> UInt64 {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return FNV1a.hash(try encoder.encode(layout))
    }

    private static func hitReport(_ layout: PinLayoutResult, style: PinStyle) -> String {
        let tester = PinHitTester(layout: layout, style: style)
        var random = SplitMix64(seed: 5)
        let taps = (0..<1_000_000).map { _ in
            ScreenPoint(x: Double.random(in: 0...layout.viewport.size.width, using: &random), y: Double.random(in: 0...layout.viewport.size.height, using: &random))
        }
        var hits = 0
        let ours = BenchmarkClock.best(of: 3) {
            hits = 0
            for tap in taps where tester.hit(tap).kind != .none { hits += 1 }
        }
        let targets = layout.pins.compactMap { $0.groupId == nil ? $0.avatarRect : nil } + layout.groups.compactMap(\.avatarRect)
            + layout.pins.compactMap { $0.groupId == nil ? $0.labelRect : nil } + layout.groups.compactMap(\.labelRect)
        var naiveHits = 0
        let naive = BenchmarkClock.best(of: 1) {
            for tap in taps where targets.contains(where: { $0.inset(by: EdgeInsets(all: min(0, ($0.width - style.minimumTouchTarget) / 2))).contains(tap) }) {
                naiveHits += 1
            }
        }
        let rate = Double(taps.count) / ours / 1e6
        return BenchmarkClock.report("1,000,000 hit tests on the 100,000-pin layout (\(BenchmarkClock.format(rate)) M/s, \(hits) hits)",
                                     ours: ours, anchor: naive, anchorName: "a linear scan of \(targets.count) targets (\(naiveHits) hits)")
    }
}
