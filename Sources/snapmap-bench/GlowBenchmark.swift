import Foundation
import GeoCore
import HeatMap
import MapEngine
import MapScene
import Raster

/// The live glow: Snaps into the aggregate a second (in process), and a heat tile re-rendered after one new
/// Snap in its area, against recomputing the aggregate from every Snap in the window (the anchor); Snaps over
/// HTTP are in the `live` benchmark.
enum GlowBenchmark {
    static let ingestCount = 1_000_000
    static let tileRounds = 200
    static let goals = (ingest: 50_000.0, tileP99: 0.005)

    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let now = engine.scene.capturedAt
        let snaps = syntheticSnaps(count: ingestCount, now: now)
        let aggregate = SnapAggregate(settings: engine.glow.aggregate.settings)
        let ingest = BenchmarkClock.best(of: 1) { snaps.forEach(aggregate.add) }
        let demo = try SnapsFile.read(URL(fileURLWithPath: "Data").appendingPathComponent(SnapsFile.demoFile)).map { LiveGlow.posted($0) }
        demo.forEach(engine.glow.aggregate.add)
        let tile = try TileID(containing: Coordinate(lat: 40.7207, lon: -73.9515), zoom: 15)
        let centre = WebMercator.projectUnchecked(lat: 40.7207, lon: -73.9515)
        var times: [Double] = []
        for round in 0..<tileRounds {
            let snap = PostedSnap(poster: "bench-\(round % 7)", point: MercatorPoint(x: centre.x + Double(round % 13) * 7, y: centre.y), takenAt: now)
            times.append(BenchmarkClock.best(of: 1) {
                engine.glow.aggregate.add(snap)
                _ = try? PNGCodec.encode(engine.renderHeatTile(tile, now: now))
            })
        }
        times.sort()
        let p99 = times[times.count * 99 / 100]
        let everything = demo + snaps.prefix(100_000)
        let recompute = BenchmarkClock.best(of: 3) {
            let fresh = SnapAggregate(settings: engine.glow.aggregate.settings)
            everything.forEach(fresh.add)
            let view = MapView(tile: tile, tileSize: 256, scale: 1)
            let points = fresh.points(in: view.mercatorBounds, at: now)
            let renderer = HeatRenderer(source: HeatSource(points: points, referenceLatitude: engine.glow.latitude), style: engine.glow.style)
            guard let canvas = try? Canvas(width: view.width, height: view.height), let image = try? renderer.render(view) else { return }
            canvas.composite(image)
            _ = try? PNGCodec.encode(canvas)
        }
        let rate = Double(ingestCount) / ingest
        return [
            String(format: "glow ingest: %.0f Snaps/s into the aggregate (%.2f× the %.0f/s goal)", rate, rate / goals.ingest, goals.ingest),
            String(format: "glow tile after one new Snap: p99 %.2f ms, median %.2f ms (%.2f× the 5 ms goal)",
                   p99 * 1000, times[times.count / 2] * 1000, goals.tileP99 / p99),
            BenchmarkClock.report("glow tile, incremental against recomputing the aggregate from \(everything.count) Snaps", ours: times[times.count / 2],
                                  anchor: recompute, anchorName: "full recomputation"),
        ].joined(separator: "\n")
    }

    /// Snaps spread over north Brooklyn and the 24 hours before `now`, by 50,000 people.
    static func syntheticSnaps(count: Int, now: Date) -> [PostedSnap] {
        var random = SplitMix64(seed: 3)
        let origin = WebMercator.projectUnchecked(lat: 40.69, lon: -73.99)
        return (0..<count).map { _ in
            PostedSnap(poster: "p\(random.next() % 50_000)", point: MercatorPoint(x: origin.x + random.unit() * 8000, y: origin.y + random.unit() * 8000),
                       takenAt: now.addingTimeInterval(-random.unit() * 24 * 3600))
        }
    }
}
