import Foundation
import MapEngine
import MapScene
import PinLayout

/// `layout-runs`: 100,000 and 1,000,000 synthetic pins (`LayoutBenchmark`'s) laid out afresh 11 times each, with
/// the median and range of the wall time and of the process's CPU time (every thread's, so that a build running
/// stages on several cores is charged for all of them), against the 100 ms and 1 s goals. For comparing two builds
/// run by turns on a shared machine, where one best-of-3 figure says little.
enum LayoutRunsBenchmark {
    static let runs = 11

    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let pins = engine.pinEngine(scale: engine.scene.viewport.scale)
        let (viewport, now) = (engine.scene.viewport, engine.scene.capturedAt)
        return [(100_000, LayoutBenchmark.goal, "the 100 ms goal"), (1_000_000, 1.0, "the 1 s goal")].map { count, goal, goalName in
            let subjects = LayoutBenchmark.synthetic(count: count, now: now)
            var (walls, cpus) = ([Double](), [Double]())
            for _ in 0..<runs {
                let fresh = PinLayoutEngine(style: pins.style, measurer: pins.measurer)
                let (cpu, start) = (BenchmarkClock.processCPU(), ContinuousClock.now)
                let layout = fresh.layout(subjects: subjects, viewport: viewport, now: now)
                let (wall, used) = (ContinuousClock.now - start, BenchmarkClock.processCPU() - cpu)
                (walls, cpus) = (walls + [BenchmarkClock.seconds(wall)], cpus + [used])
                // Freed after the timing, as a caller holds its layout while it draws it.
                withExtendedLifetime(layout) {}
            }
            let spread = "\(runs) runs, wall median \(BenchmarkClock.format(median(walls))) s (\(range(walls))), process CPU median "
                + "\(BenchmarkClock.format(median(cpus))) s (\(range(cpus)))"
            return BenchmarkClock.report("layout of \(count) synthetic pins afresh, \(spread); median wall", ours: median(walls), anchor: goal, anchorName: goalName)
        }.joined(separator: "\n")
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    private static func range(_ values: [Double]) -> String {
        "\(BenchmarkClock.format(values.min() ?? 0))–\(BenchmarkClock.format(values.max() ?? 0))"
    }
}
