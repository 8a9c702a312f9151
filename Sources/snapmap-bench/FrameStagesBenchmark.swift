import Foundation
import GeoCore
import HeatMap
import LiveMap
import MapEngine
import Raster

/// Where a per-viewer Williamsburg frame's time goes, stage by stage (best of 5 each): the shared layers (base and
/// glow), copying them, the viewer's pins, and PNG encoding; against the whole frame from scratch.
enum FrameStagesBenchmark {
    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let scene = engine.scene
        let snaps = try SnapsFile.read(URL(fileURLWithPath: "Data").appendingPathComponent(SnapsFile.demoFile))
        snaps.map(LiveGlow.posted).forEach(engine.glow.add)
        let friends = scene.friends
        let viewport = scene.viewport
        var shared: Canvas?
        let base = try BenchmarkClock.best(of: 5) { shared = try engine.renderFrame(viewport, layers: [.base, .heat], now: scene.capturedAt).canvas }
        var copy: Canvas?
        let copying = try BenchmarkClock.best(of: 5) { copy = try shared!.copy() }
        let layout = try engine.layout(viewport, friends: friends, now: scene.capturedAt)
        let pins = try BenchmarkClock.best(of: 5) {
            let canvas = try shared!.copy()
            engine.drawPins(layout, friends: friends, into: canvas)
        }
        let encode = try BenchmarkClock.best(of: 5) { _ = try PNGCodec.encode(copy!) }
        let whole = try BenchmarkClock.best(of: 5) {
            _ = try PNGCodec.encode(engine.renderFrame(viewport, layers: [.base, .heat, .pins], friends: friends, now: scene.capturedAt).canvas)
        }
        func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
        return "frame stages (1179×2556): base+glow \(ms(base)), copy \(ms(copying)), copy+pins \(ms(pins)), PNG \(ms(encode)); "
            + "whole frame from scratch \(ms(whole)); shared-layer path \(ms(pins + encode)) (\(String(format: "%.2f", whole / (pins + encode)))× faster)"
    }
}
