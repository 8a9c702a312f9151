import Foundation
import GeoCore
import HeatMap
import LiveMap
import MapEngine
import MapScene
import Raster

/// Where a per-viewer Williamsburg frame's time goes, stage by stage (best of 5 each): the shared layers (base and
/// glow, made once per viewport), then per viewer the layout, a kept canvas made a copy of the shared layer again,
/// the pins over it and the PNG (spliced where the pins are), against the whole frame from scratch.
enum FrameStagesBenchmark {
    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let scene = engine.scene
        let snaps = try SnapsFile.read(URL(fileURLWithPath: "Data").appendingPathComponent(SnapsFile.demoFile))
        snaps.map { LiveGlow.posted($0) }.forEach(engine.glow.aggregate.add)
        let (friends, viewport, now) = (scene.friends, scene.viewport, scene.capturedAt)
        let sharing = SharedLayers(budget: MapEngine.sharedLayerBudget)
        let base = try BenchmarkClock.best(of: 5) { _ = try engine.renderFrame(viewport, layers: [.base, .heat], now: now) }
        let warm = try engine.renderFrame(viewport, layers: [.base, .heat, .pins], friends: friends, now: now, sharing: sharing)
        _ = try warm.png()
        let shared = try require(warm.shared)
        var layout = warm.layout
        let laying = try BenchmarkClock.best(of: 5) { layout = try engine.layout(viewport, friends: friends, now: now) }
        let copy = try shared.canvas.copy()
        engine.drawPins(layout!, friends: friends, into: copy)
        // A frame starts from a kept canvas: what the last frame drew over the layer is copied back.
        let copying = try BenchmarkClock.best(of: 5) {
            try copy.reset(to: shared.canvas)
            engine.drawPins(layout!, friends: friends, into: copy)
        }
        let pins = BenchmarkClock.best(of: 5) {
            engine.drawPins(layout!, friends: friends, into: copy)
        }
        let restoring = copying - pins
        let bands = try BenchmarkClock.best(of: 5) { _ = try shared.png(of: copy) }
        let encode = try BenchmarkClock.best(of: 5) { _ = try PNGCodec.encode(copy) }
        let viewer = try BenchmarkClock.best(of: 5) {
            _ = try engine.encodeFrame(viewport, layers: [.base, .heat, .pins], friends: friends, now: now, sharing: sharing)
        }
        let whole = try BenchmarkClock.best(of: 5) {
            _ = try PNGCodec.encode(engine.renderFrame(viewport, layers: [.base, .heat, .pins], friends: friends, now: now).canvas)
        }
        func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
        return "frame stages (1179×2556): shared base+glow \(ms(base)) once per viewport; per viewer: layout \(ms(laying)), the kept canvas made the layer again \(ms(restoring)), "
            + "pins \(ms(pins)), PNG of the changed bands \(ms(bands)) (the whole PNG \(ms(encode))); a viewer's frame through the shared layer "
            + "\(ms(viewer)) against \(ms(whole)) from scratch (\(String(format: "%.2f", whole / viewer))× faster)"
    }
}

private struct MissingSharedLayer: Error {}

private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw MissingSharedLayer() }
    return value
}
