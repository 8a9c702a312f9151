import GeoCore

/// The Web Mercator fast path against PROJ's `proj_trans_generic` on the same million points.
enum ProjectionBenchmark {
    static let pointCount = 1_000_000

    static func run() throws -> String {
        var generator = SplitMix64(seed: 42)
        let lats = (0..<pointCount).map { _ in Double.random(in: 40.5...40.9, using: &generator) }
        let lons = (0..<pointCount).map { _ in Double.random(in: -74.1 ... -73.7, using: &generator) }
        let transformer = try ProjTransformer(source: ProjTransformer.wgs84, target: ProjTransformer.webMercator)
        var checksum = 0.0
        let proj = try BenchmarkClock.best(of: 3, prepare: { (lons, lats) }) { xs, ys in
            try transformer.transform(xs: &xs, ys: &ys)
            checksum += xs[0]
        }
        let fast = BenchmarkClock.best(of: 5, prepare: { (lons, lats) }) { xs, ys in
            WebMercator.project(xs: &xs, ys: &ys)
            checksum += xs[0]
        }
        let oneCore = BenchmarkClock.best(of: 5, prepare: { (lons, lats) }) { xs, ys in
            WebMercator.project(xs: &xs, ys: &ys, parallel: false)
            checksum += xs[0]
        }
        precondition(checksum.isFinite)
        let millions = Double(pointCount) / 1e6
        let name = "projection, 1M points to EPSG:3857"
        return BenchmarkClock.report("\(name), all cores (\(BenchmarkClock.format(millions / fast)) Mpts/s)",
                                     ours: fast, anchor: proj, anchorName: "PROJ proj_trans_generic") + "\n"
            + BenchmarkClock.report("\(name), one core (\(BenchmarkClock.format(millions / oneCore)) Mpts/s)",
                                    ours: oneCore, anchor: proj, anchorName: "PROJ proj_trans_generic")
    }
}
