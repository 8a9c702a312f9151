import Foundation
import GeoCore
import MapEngine
import Raster

/// `snapmap render`: a PNG frame of any viewport.
let runRender: Command.Run = { options in
    let out = try options.requiredPath("out")
    let engine = try DataLocator.engine(options)
    let viewport = try options.request.viewport(scene: engine.scene)
    try engine.checkFrame(viewport)
    let layers = try options.request.layers(default: [.base])
    _ = try options.request.clock(scene: engine.scene, default: Date())  // a bad --clock is refused whatever the layers
    if layers.contains(.footsteps), !layers.contains(.base) { throw UsageError(description: "--layers: footsteps is drawn over the base layer: add base") }
    let view = !layers.isDisjoint(with: [.pins, .heat, .footsteps]) ? try LiveOptions.view(options, engine: engine) : nil
    let selected = try options.request.selected(among: view?.friends ?? [])
    let atSelection = options.flag("at-selection")
    if atSelection && (selected == nil || view == nil) { throw UsageError(description: "--at-selection needs --selected ID and the pins layer") }
    // The viewer's places that can tint the frame as drawn: at the selection's camera when it is drawn there.
    var places: [MercatorPoint] = []
    if let view, layers.contains(.footsteps) {
        let framed = try atSelection ? engine.selectionLayout(viewport, friends: view.friends, selected: selected!, now: view.now, viewer: view.location).viewport : viewport
        places = try view.places(framed, layers)
    }
    let frame = try engine.encodeFrame(viewport, layers: layers, friends: view?.friends ?? [], selected: selected, atSelection: atSelection,
                                       now: view?.now ?? engine.scene.capturedAt, viewer: view?.location, places: places)
    var written = ["\(out) (\(frame.width)×\(frame.height) px)"]
    if let layoutOut = try options.path("layout-out") {
        guard let layout = frame.layout else { throw UsageError(description: "--layout-out needs the pins layer (--layers ...,pins)") }
        try Data((try JSONOutput.encode(layout) + "\n").utf8).write(to: URL(fileURLWithPath: layoutOut))
        written.append(layoutOut)
    }
    try Data(frame.png).write(to: URL(fileURLWithPath: out))
    return "wrote " + written.joined(separator: " and ")
}

/// `snapmap tile`: one XYZ tile as PNG.
let runTile = singleTileRun { engine, tile, size, scale, _ in
    try engine.renderTile(tile, tileSize: size, scale: scale)
}

/// `snapmap heat-tile`: a transparent overlay tile of the glow.
let runHeatTile = singleTileRun { engine, tile, size, scale, options in
    let view = try LiveOptions.view(options, engine: engine)
    return try engine.renderHeatTile(tile, tileSize: size, scale: scale, now: view.now)
}

/// The runner of a command that renders one tile `Z/X/Y` with `--tile-size` and `--scale` into `--out`.
func singleTileRun(render: @escaping @Sendable (MapEngine, TileID, Int, Double, ParsedOptions) throws -> Canvas) -> Command.Run {
    { options in
        let tile = try TileID(parsing: try options.positional(), field: "tile")
        let (tileSize, scale) = try TileOptions.sizeAndScale(options)
        let out = try options.requiredPath("out")
        let engine = try DataLocator.engine(options)
        let canvas = try render(engine, tile, tileSize, scale, options)
        try Data(PNGCodec.encode(canvas)).write(to: URL(fileURLWithPath: out))
        return "wrote \(out) (\(tile), \(canvas.width)×\(canvas.height) px)"
    }
}

/// `snapmap fly`: the fly-to a friend as an animated PNG, ending on the selected frame with its card.
let runFly: Command.Run = { options in
    let out = try options.requiredPath("out")
    let engine = try DataLocator.engine(options)
    let viewport = try options.request.viewport(scene: engine.scene)
    let view = try LiveOptions.view(options, engine: engine)
    let friend = try options.required("friend")
    let fps = try options.integer("fps", in: 30...60) ?? 30
    let frames = try engine.flyAnimation(viewport, friends: view.friends, selected: friend, now: view.now, viewer: view.location, framesPerSecond: fps)
    try Data(APNG.encode(frames)).write(to: URL(fileURLWithPath: out))
    return "wrote \(out) (\(frames.count) frames at \(fps) fps, \(frames.reduce(0) { $0 + $1.delayMilliseconds }) ms)"
}
