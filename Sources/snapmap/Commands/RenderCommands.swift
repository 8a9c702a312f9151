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
    let layers = try LayerList(options.value("layers") ?? "base")
    let engine = try MapEngine(paths: DataPaths(dataDirectory: DataLocator.directory(options)))
    let viewport = try ViewportOptions.viewport(options, scene: engine.scene)
    try GeoError.check(viewport.zoom, "--zoom", in: MapEngine.frameZoomRange)
    let selected = options.value("selected")
    if let selected, engine.scene.friend(id: selected) == nil { throw UnknownFriend(id: selected, known: engine.scene.friends.map(\.id)) }
    let frame = try engine.renderFrame(viewport, layers: layers.layers, selected: selected, now: PinOptions.now(options, scene: engine.scene))
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

/// The layers a frame draws, validated against the layers that exist.
struct LayerList {
    let layers: Set<MapLayer>

    init(_ text: String) throws(UsageError) {
        let allowed = MapLayer.allCases.map(\.rawValue).joined(separator: ", ")
        var layers = Set<MapLayer>()
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let layer = MapLayer(rawValue: name) else { throw UsageError(description: "--layers: unknown layer \"\(name)\"; allowed: \(allowed)") }
            layers.insert(layer)
        }
        guard !layers.isEmpty else { throw UsageError(description: "--layers needs at least one of \(allowed)") }
        self.layers = layers
    }
}
