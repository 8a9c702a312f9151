import Foundation
import GeoCore
import TileExport
import VectorTiles

/// `snapmap tiles`: a pyramid of XYZ tiles into a directory or an MBTiles file.
let runTiles: Command.Run = { options in
    let box = try GeoBoundingBox(parsing: options.required("bbox"), field: "--bbox")
    let cover = try TileCover(bounds: box, zooms: parseZoomRange(options.required("zoom")))
    let (shardIndex, shardCount) = try parseShard(options.value("shard") ?? "0/1")
    let pyramid = try TilePyramid(cover: cover, shardIndex: shardIndex, shardCount: shardCount)
    let format = try parseTileFormat(options.value("format") ?? "png")
    if format == .mvt, let option = ["tile-size", "scale"].first(where: { options.value($0) != nil }) {
        throw UsageError(description: "--\(option) applies to PNG tiles only; vector tiles have no pixel size")
    }
    let (tileSize, scale) = try TileOptions.sizeAndScale(options)
    let out = try options.requiredPath("out")
    let engine = try DataLocator.engine(options)
    let vectorTiles = VectorTileMaker(engine.baseMap)
    let sink: any TileSink = out.hasSuffix(".mbtiles")
        ? try MBTilesFile(path: out, metadata: .init(name: options.value("name") ?? "snapmap", bounds: box, zooms: cover.zooms, format: format,
                                                     vectorLayers: format == .mvt ? vectorTiles.layers : []))
        : try DirectoryTileSink(directory: URL(fileURLWithPath: out), format: format)
    let tile: @Sendable (TileID) throws -> [UInt8] = if format == .png {
        { try engine.tilePNG($0, tileSize: tileSize, scale: scale) }
    } else {
        { vectorTiles.tile($0) }
    }
    let interrupt = InterruptFlag()
    interrupt.install()
    var bar: ProgressBar?
    let clock = ContinuousClock()
    var rendered = 0
    let elapsed = try clock.measure {
        rendered = try PyramidExporter(tileSize: tileSize, scale: scale, format: format, tile: tile).export(pyramid, to: sink, restart: options.flag("restart"),
                                                                                            progress: { done, total in
            if bar == nil { bar = ProgressBar(startDone: done) }
            bar?.update(done: done, total: total)
        }, shouldStop: { interrupt.isRaised })
    }
    let seconds = elapsed / .seconds(1)
    let status = interrupt.isRaised ? "interrupted; rerun to finish" : "complete"
    return "\(out): rendered \(rendered) of \(pyramid.tiles.count) tiles (shard \(shardIndex)/\(shardCount)) in \(String(format: "%.2f", seconds)) s, \(status)"
}

/// `snapmap mbtiles-merge`: joins the MBTiles parts of a sharded pyramid.
let runMbtilesMerge: Command.Run = { options in
    let out = try options.requiredPath("out")
    let parts = try options.positionals()
    // A missing part is a missing data file (exit 1), not a wrong command line.
    for part in parts where !FileManager.default.isReadableFile(atPath: part) {
        throw DataNotFound(message: "cannot read \(part): no such file, or not readable")
    }
    let merged = try MBTilesFile(path: out, metadata: nil)
    try merged.merge(parts)
    return "\(out): \(try merged.existingTiles().count) tiles from \(parts.count) parts"
}

/// Parses `--format`: png or mvt.
func parseTileFormat(_ text: String) throws(UsageError) -> TileFormat {
    guard let format = TileFormat(rawValue: text) else { throw UsageError(description: "--format must be png or mvt, got \"\(text.prefix(32))\"") }
    return format
}

/// Parses `I/N` with 0 ≤ I < N.
func parseShard(_ text: String) throws(UsageError) -> (Int, Int) {
    let parts = text.split(separator: "/").map { Int($0) }
    guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (0..<count).contains(index) else {
        throw UsageError(description: "--shard must be I/N with 0 ≤ I < N, got \"\(text)\"")
    }
    return (index, count)
}
