import Foundation
import GeoCore
import HeatMap
import MapEngine
import Raster

/// `snapmap generate-activity`: writes the glow's sample activity from the hotspots file, deterministically.
let generateActivityCommand = Command(
    name: "generate-activity",
    summary: "generate Data/williamsburg/activity.json from Data/williamsburg/hotspots.json (deterministic)",
    usage: "generate-activity [--hotspots F.json] [--out F.json] [--data DIR]",
    options: [
        .value("hotspots", "F.json", "the hotspots file (default: the data directory's williamsburg/hotspots.json)"),
        .value("out", "F.json", "where to write (default: the data directory's williamsburg/activity.json)"),
        DataLocator.option,
    ]
) { options in
    let data = try DataLocator.directory(options)
    let hotspotsURL = options.value("hotspots").map { URL(fileURLWithPath: $0) } ?? data.appendingPathComponent(ActivityLoader.hotspotsFile)
    let outURL = options.value("out").map { URL(fileURLWithPath: $0) } ?? data.appendingPathComponent(ActivityLoader.activityFile)
    let spec: ActivityGenerator.Hotspots
    do {
        spec = try JSONDecoder().decode(ActivityGenerator.Hotspots.self, from: Data(contentsOf: hotspotsURL))
    } catch {
        throw FixtureError.describing(error, file: hotspotsURL.path)
    }
    let activity = try ActivityGenerator.generate(spec)
    try Data((try JSONOutput.encode(activity) + "\n").utf8).write(to: outURL, options: .atomic)
    return "wrote \(activity.points.count) points to \(outURL.path)"
}

/// `snapmap heat-tile`: a transparent overlay tile of the glow.
let heatTileCommand = Command(
    name: "heat-tile",
    summary: "render one transparent XYZ overlay tile of the glow as PNG",
    usage: "heat-tile Z/X/Y [--tile-size 256|512] [--scale 1|2] --out F.png",
    options: [
        .value("tile-size", "N", "tile size in points: 256 or 512 (default 256)"),
        .value("scale", "S", "pixels per point: 1 or 2 (default 1)"),
        .value("out", "F.png", "the PNG file to write"),
        DataLocator.option,
    ],
    positional: "Z/X/Y"
) { options in
    let tile = try TileID(parsing: try options.positional(), field: "tile")
    let (tileSize, scale) = try tileSizeAndScale(options)
    let out = try options.required("out")
    let engine = try MapEngine(paths: DataPaths(dataDirectory: DataLocator.directory(options)))
    let canvas = try engine.renderHeatTile(tile, tileSize: tileSize, scale: scale)
    try Data(PNGCodec.encode(canvas)).write(to: URL(fileURLWithPath: out))
    return "wrote \(out) (\(tile) glow, \(canvas.width)×\(canvas.height) px)"
}

/// The shared `--tile-size 256|512` and `--scale 1|2` options.
func tileSizeAndScale(_ options: ParsedOptions) throws -> (Int, Double) {
    let tileSize = try options.integer("tile-size", in: 256...512) ?? 256
    guard MapEngine.tileSizes.contains(tileSize) else { throw UsageError(description: "--tile-size must be 256 or 512, got \(tileSize)") }
    let scale = try options.number("scale", in: 1...2) ?? 1
    guard MapEngine.tileScales.contains(scale) else { throw UsageError(description: "--scale must be 1 or 2, got \(scale)") }
    return (tileSize, scale)
}
