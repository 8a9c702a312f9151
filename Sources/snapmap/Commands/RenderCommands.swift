import Foundation
import GeoCore
import MapEngine
import Raster

/// `snapmap render`: a PNG frame of any viewport.
let renderCommand = Command(
    name: "render",
    summary: "render a PNG frame of a viewport (default: the scene's Williamsburg viewport, 393x852 pt @3x)",
    usage: "render [--layers base,heat,pins] [--selected ID] [--now ISO8601|scene] [--layout-out F.json] [--center LAT,LON] [--zoom Z] [--size WxH] [--scale S] --out F.png",
    options: ViewportOptions.specs + PinOptions.specs + [
        .value("layers", "LIST", "comma-separated layers to draw, bottom to top: base, heat, pins (default: base)"),
        .value("out", "F.png", "the PNG file to write"),
        .value("layout-out", "F.json", "also write the pin layout the frame was drawn from"),
        DataLocator.option,
    ]
) { options in
    let out = try options.required("out")
    let engine = try MapEngine(paths: DataPaths(dataDirectory: DataLocator.directory(options)))
    let viewport = try options.request.viewport(scene: engine.scene)
    try engine.checkFrame(viewport)
    let frame = try engine.renderFrame(viewport, layers: options.request.layers(default: [.base]), selected: options.request.selected(scene: engine.scene),
                                       now: options.request.now(scene: engine.scene, clock: Date()))
    let png = try PNGCodec.encode(frame.canvas)
    var written = ["\(out) (\(frame.canvas.width)×\(frame.canvas.height) px)"]
    if let layoutOut = options.value("layout-out") {
        guard let layout = frame.layout else { throw UsageError(description: "--layout-out needs the pins layer (--layers ...,pins)") }
        try Data((try JSONOutput.encode(layout) + "\n").utf8).write(to: URL(fileURLWithPath: layoutOut))
        written.append(layoutOut)
    }
    try Data(png).write(to: URL(fileURLWithPath: out))
    return "wrote " + written.joined(separator: " and ")
}

/// `snapmap tile`: one XYZ tile as PNG.
let tileCommand = Command(
    name: "tile",
    summary: "render one XYZ tile as PNG",
    usage: "tile Z/X/Y [--tile-size 256|512] [--scale 1|2] --out F.png",
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
    let canvas = try engine.renderTile(tile, tileSize: tileSize, scale: scale)
    try Data(PNGCodec.encode(canvas)).write(to: URL(fileURLWithPath: out))
    return "wrote \(out) (\(tile), \(canvas.width)×\(canvas.height) px)"
}
