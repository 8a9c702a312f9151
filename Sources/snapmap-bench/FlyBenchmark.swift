import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import PinLayout
import Raster

/// The fly-to animation to Jordan from the scene's viewport (the path, the card's slide, APNG encoding), at @3x
/// and @1x, against the same frames each rendered whole and encoded on its own, and the 2 s goal for a 0.9 s flight.
enum FlyBenchmark {
    static let goal = 2.0

    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let scene = engine.scene
        try SnapsFile.read(URL(fileURLWithPath: "Data").appendingPathComponent(SnapsFile.demoFile)).map { LiveGlow.posted($0) }.forEach(engine.glow.aggregate.add)
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
            let scratch = try BenchmarkClock.best(of: 1) { _ = try fromScratch(engine, start: start) }
            lines.append(BenchmarkClock.report("fly-to Jordan, \(count) frames at 30 fps, @\(Int(scale))x", ours: time, anchor: scratch,
                                               anchorName: "every frame rendered and encoded from scratch, one after another")
                         + String(format: "; goal 2 s: %@", time <= goal ? "met" : "not met"))
        }
        return lines.joined(separator: "\n")
    }

    /// The animation's frames the plain way: each camera of the path, then each step of the card's slide, rendered
    /// as a whole frame and encoded whole.
    static func fromScratch(_ engine: MapEngine, start: Viewport) throws -> Int {
        let scene = engine.scene
        let (framed, layout, answer) = try engine.selectionLayout(start, friends: scene.friends, selected: "jordan", now: scene.capturedAt)
        var bytes = 0
        let step = Int(FlyToPath.framesPerSecond) / 30
        for frame in stride(from: 0, to: answer.path.count - 1, by: step).map({ answer.path[$0] }) {
            let canvas = try engine.renderFrame(framed.with(Camera(center: frame.center, zoom: frame.zoom)), layers: [.base, .heat, .pins],
                                                friends: scene.friends, selected: "jordan", now: scene.capturedAt).canvas
            bytes += try PNGCodec.encode(canvas).count
        }
        let slides = Int((MapEngine.cardSlideSeconds * 30).rounded())
        for _ in 0..<(layout.card == nil ? 0 : slides) {
            bytes += try engine.encodeFrame(start, layers: [.base, .heat, .pins], friends: scene.friends, selected: "jordan", atSelection: true,
                                            now: scene.capturedAt).png.count
        }
        return bytes
    }
}
