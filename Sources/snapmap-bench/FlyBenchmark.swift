import Foundation
import GeoCore
import LiveMap
import MapEngine
import Raster

/// The fly-to animation to Jordan from the scene's viewport (the path, the card's slide, APNG encoding), at @3x
/// and @1x, against the 2 s goal for a 0.9 s flight.
enum FlyBenchmark {
    static let goal = 2.0

    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let scene = engine.scene
        try SnapsFile.read(URL(fileURLWithPath: "Data").appendingPathComponent(SnapsFile.demoFile)).map(LiveGlow.posted).forEach(engine.glow.add)
        var lines: [String] = []
        for scale in [3.0, 1.0] {
            let start = try Viewport(center: scene.viewport.center, zoom: scene.viewport.zoom, size: scene.viewport.size, scale: scale,
                                     insets: scene.viewport.insets)
            var count = 0
            let time = try BenchmarkClock.best(of: 2) {
                let frames = try engine.flyAnimation(start, friends: scene.friends, selected: "jordan", now: scene.capturedAt)
                count = frames.count
                _ = try APNG.encode(frames)
            }
            lines.append(BenchmarkClock.report("fly-to Jordan, \(count) frames at 30 fps, @\(Int(scale))x (every frame rendered and encoded)",
                                               ours: time, anchor: goal, anchorName: "the 2 s goal"))
        }
        return lines.joined(separator: "\n")
    }
}
