import BaseMap
import Foundation
import GeoCore
import MapEngine
import MapScene
import Raster
import TileExport

/// The base map against Mapnik (`../shared/bench/mapnik_render.py`) in the same run: the Williamsburg frame,
/// the Williamsburg pyramid z12–16, and whole processes; plus the base map's load time cold and warm.
enum BaseMapBenchmark {
    static let mapnikScript = "../shared/bench/mapnik_render.py"
    static let center = "40.7145,-73.9565"
    static let zoom = 14.5
    static let box = "-73.972,40.700,-73.930,40.728"

    static func run() throws -> String {
        let paths = DataPaths(dataDirectory: URL(fileURLWithPath: "Data"))
        let engine = try MapEngine(paths: paths)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        let mapnikFrame = try mapnikJSON(["frame", "--center=\(center)", "--zoom", String(zoom), "--size", "393x852", "--scale", "3",
                                          "--repeat", "5", "--out", scratch.appendingPathComponent("mapnik.png").path])
        let viewport = try Viewport(center: Coordinate(parsing: center, field: "center"), zoom: zoom, size: ScreenSize(width: 393, height: 852), scale: 3)
        // The engine's render + PNG of a frame, as `snapmap render` and the server make it.
        _ = try engine.encodeFrame(viewport, layers: [.base], friends: [], now: engine.scene.capturedAt)
        let frame = try BenchmarkClock.mean(of: 5) { _ = try engine.encodeFrame(viewport, layers: [.base], friends: [], now: engine.scene.capturedAt) }

        let mapnikTiles = try mapnikJSON(["tiles", "--bbox=\(box)", "--zooms", "12-16", "--out", scratch.appendingPathComponent("mapnik-tiles").path])
        let cover = try TileCover(bounds: GeoBoundingBox(parsing: box, field: "bbox"), zooms: 12...16)
        let pyramid = try BenchmarkClock.best(of: 3) {
            let directory = scratch.appendingPathComponent("tiles-\(UUID().uuidString)")
            try PyramidExporter { try engine.tilePNG($0) }.export(TilePyramid(cover: cover), to: DirectoryTileSink(directory: directory))
        }

        let ours = try BenchmarkClock.best(of: 5) {
            try ProcessTimer.run([".build/release/snapmap", "render", "--center=\(center)", "--zoom", String(zoom),
                                  "--out", scratch.appendingPathComponent("ours.png").path])
        }
        let theirs = try BenchmarkClock.best(of: 5) {
            try ProcessTimer.run([BenchmarkProcess.debianPython, mapnikScript, "frame", "--out", scratch.appendingPathComponent("m.png").path])
        }

        let sources = paths.baseMapSourceDirectory
        let cold = try BenchmarkClock.best(of: 2) { _ = try BaseMapImporter.importStore(from: sources, waterNames: paths.waterNamesFile) }
        let cacheFile = paths.baseMapCacheDirectory.appendingPathComponent(BaseMapCache.fileName)
        let fingerprint = BaseMapCache.fingerprint(of: sources, waterNames: paths.waterNamesFile)
        let warm = try BenchmarkClock.best(of: 5) { _ = try BaseMapCache.read(from: cacheFile, fingerprint: fingerprint) }

        return [
            BenchmarkClock.report("Williamsburg frame 1179×2556 @ z14.5, render + PNG (mean of 5 after a warm-up, as Mapnik's --repeat 5)", ours: frame,
                                  anchor: mapnikFrame["render_s", default: 0] + mapnikFrame["encode_s", default: 0], anchorName: "Mapnik"),
            BenchmarkClock.report("Williamsburg pyramid z12–16 (\(cover.count) tiles), render + PNG (+ write, ours)", ours: pyramid,
                                  anchor: mapnikTiles["render_s", default: 0] + mapnikTiles["encode_s", default: 0], anchorName: "Mapnik"),
            BenchmarkClock.report("whole process: snapmap render vs mapnik_render.py frame", ours: ours, anchor: theirs, anchorName: "Mapnik script"),
            BenchmarkClock.report("base map load: binary cache (warm) vs GeoJSON + Shapefile import (cold)", ours: warm, anchor: cold, anchorName: "import"),
        ].joined(separator: "\n")
    }

    private static func mapnikJSON(_ arguments: [String]) throws -> [String: Double] {
        let output = try BenchmarkProcess.run(BenchmarkProcess.debianPython, [mapnikScript] + arguments)
        guard let line = output.split(separator: "\n").last,
              let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw BenchmarkFailure(message: "mapnik_render.py printed \(output)")
        }
        return json.compactMapValues { $0 as? Double }
    }
}
