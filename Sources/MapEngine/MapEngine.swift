import BaseMap
import Foundation
import GeoCore
import MapScene
import PinDrawing
import PinLayout
import Raster

/// The layers a frame can draw.
public enum MapLayer: String, CaseIterable, Sendable {
    case base
    case heat
    case pins
    /// The streets a person has visited, tinted over the base (their own frames only, from their Footsteps).
    case footsteps
}

/// Shared layers (base and glow of a viewport at a data version), by what they depend on.
public typealias SharedLayers = ByteBudgetCache<String, SharedLayer>

/// The style file as the engine draws it: the base map's, the glow's, the pins' and the card's looks, decoded once.
public typealias EngineStyle = StyleFile<MapStyle, PinLook, CardLook>

/// The composed engine: the scene and the base map loaded once, answering frames and tiles. Shared across
/// threads: everything it holds is immutable or locks itself.
public final class MapEngine: Sendable {
    /// Frames accept zooms 10…20 (the base map's useful range) and scales 1…4.
    public static let frameZoomRange: ClosedRange<Double> = 10...20
    public static let tileSizes = [256, 512]
    public static let tileScales = [1.0, 2.0]
    /// The zooms the raster and glow tiles are offered at in TileJSON and styles (frames' zooms; any tile can be asked for).
    public static let offeredTileZooms = Int(frameZoomRange.lowerBound)...Int(frameZoomRange.upperBound)

    public let paths: DataPaths
    public let scene: Scene
    public let baseMap: BaseMapRenderer
    /// The glow: its look, its live aggregate of public Snaps (no friend's location ever feeds it), measured at the
    /// scene's latitude.
    public let glow: SceneGlow
    /// Pin sizes and colours, and the font labels are measured and drawn with.
    public let pinLook: PinLook
    public let labelFont: Font
    /// The selected friend's card.
    public let cardLook: CardLook
    /// The style's sections, for the tags of the answers drawn from them.
    public let styleSections: StyleSections
    /// Avatar images decoded on first use, by path under the data directory.
    let avatars: AvatarCache
    /// The blurred masks of pin shadows, made once per shape.
    let shadowMasks = ShadowMasks()
    /// Canvases of encoded frames, for the next frames drawn over shared layers.
    let framePool = FramePool()
    /// The fingerprints of the glow's points that reach a view, by view and glow snapshot (so the points are not
    /// gathered for every frame).
    let glowPrints = ByteBudgetCache<String, String>(budget: 1024)
    /// Groupings of the friend sets laid out last (a viewer panning and zooming groups their friends once), within
    /// 250,000 friends; the server empties it when an account is deleted.
    public let groupings = GroupingCache(maxSubjects: 250_000)
    /// The neighbourhoods Footsteps are measured over, and their street lengths, read and measured on first use.
    let explorations = Explorations()

    /// Loads the scene, the style (its file read and decoded once), the label font and the base map (from its cache,
    /// importing it when the cache is missing or stale).
    public init(paths: DataPaths) throws {
        self.paths = paths
        scene = try SceneLoader(dataDirectory: paths.dataDirectory).load()
        let style = try EngineStyle(contentsOf: paths.styleFile)
        let store = try paths.loadBaseMap()
        let labelFont = try InterFont.bold.load()
        self.labelFont = labelFont
        baseMap = BaseMapRenderer(store: store, style: style.base, labelFont: labelFont)
        pinLook = style.pins
        cardLook = style.card
        styleSections = style.sections
        avatars = AvatarCache(dataDirectory: paths.dataDirectory)
        glow = SceneGlow(style: style.heat, latitude: scene.viewport.center.lat)
    }

    /// Checks a frame viewport against the frame limits (zoom 10…20, the canvas size limit), naming the
    /// parameter at fault.
    public func checkFrame(_ viewport: Viewport) throws {
        guard Self.frameZoomRange.contains(viewport.zoom) else {
            throw BadField(field: "zoom", message: "\(viewport.zoom) is out of range for frames: allowed \(Self.frameZoomRange.lowerBound) … \(Self.frameZoomRange.upperBound)")
        }
        let (width, height) = (viewport.pixelWidth, viewport.pixelHeight)
        guard width <= Canvas.maxSide, height <= Canvas.maxSide, width * height <= Canvas.maxPixels else {
            throw BadField(field: "size", message: "\(viewport.size.width)x\(viewport.size.height) pt at scale \(viewport.scale) is \(width)×\(height) px: "
                               + "allowed at most \(Canvas.maxSide) px a side and \(Canvas.maxPixels) pixels")
        }
    }

    /// Frames are drawn as horizontal bands of about this many pixel rows, in parallel; bands meet without seams
    /// because drawing depends only on the mercator origin, as tiles do. The split belongs to the frame, not to
    /// the machine (a band's origin is rounded, so another split may change an edge pixel slightly). The phone
    /// frame's 2,556 rows make seven bands, which two cores share evenly and encode as each is drawn.
    public static let bandHeight = 320
    /// Bytes of shared layers (base and glow of a viewport) kept for the next viewer of the same viewport.
    public static let sharedLayerBudget = 768 * 1024 * 1024

    /// A frame of a viewport with the given layers, bottom to top (base, heat, pins); without the base layer
    /// the frame is transparent underneath. Pins are the viewer's visible `friends`, laid out for `selected` and `now`.
    /// With `sharing`, the layers under the pins come from (or go to) the shared-layer cache: the same bytes. With the
    /// footsteps layer, the streets near `places` (the viewer's own Footsteps) are tinted, and nothing is shared.
    public func renderFrame(_ viewport: Viewport, layers: Set<MapLayer> = [.base], friends: [Friend] = [], selected: String? = nil,
                            now: Date, places: [MercatorPoint] = [], sharing: SharedLayers? = nil) throws -> RenderedFrame {
        try checkFrame(viewport)
        let layout = layers.contains(.pins) ? try self.layout(viewport, friends: friends, selected: selected, now: now) : nil
        return try composeFrame(viewport, layers: layers, layout: layout, friends: friends, card: nil, now: now, places: places, sharing: sharing).frame
    }

    /// The frame of `viewport` drawn from `layout` (pins) and `card` on one canvas, and its plan. Without `sharing`
    /// the base, glow and names are drawn band by band in parallel (the same pixels as over the whole canvas); with
    /// it, the base and glow come from the shared layer and only the names the pins move are drawn anew on a copy.
    func composeFrame(_ viewport: Viewport, layers: Set<MapLayer>, layout: PinLayoutResult?, friends: [Friend], card: CardInk?, now: Date,
                      places: [MercatorPoint] = [], sharing: SharedLayers?) throws -> (frame: RenderedFrame, plan: FramePlan) {
        try checkFrame(viewport)
        guard let sharing, !layers.contains(.footsteps) else {
            let plan = plan(viewport, layers: layers, layout: layout, friends: friends, card: card, now: now, places: places)
            let canvas = try drawInBands(plan, through: .names)
            try draw(plan, .pins ... .card, into: canvas)
            return (RenderedFrame(canvas: canvas, layout: layout, shared: nil), plan)
        }
        let layer = try sharedLayer(viewport, layers: layers.subtracting([.pins]), now: now, in: sharing)
        let plan = plan(viewport, layers: layers, layout: layout, friends: friends, card: card, now: now, names: layer.names)
        let (canvas, named) = try namedCopy(of: layer, view: plan.view, avoiding: plan.avoiding)
        try draw(plan, .pins ... .card, into: canvas)
        return (RenderedFrame(canvas: canvas, layout: layout, shared: named), plan)
    }

    /// The base and glow of a viewport (with its place names, undrawn), from the cache or drawn and kept there.
    private func sharedLayer(_ viewport: Viewport, layers: Set<MapLayer>, now: Date, in sharing: SharedLayers) throws -> SharedLayer {
        let under = plan(viewport, layers: layers, layout: nil, friends: [], card: nil, now: now, names: [])
        let key = sharedLayerKey(under.view, layers: layers, now: now, reserved: under.reserved)
        if let cached = sharing.value(key) { return cached }
        let names = layers.contains(.base) ? baseMap.placeNames(for: under.view) : []
        let made = SharedLayer(canvas: try drawInBands(under, through: .base), names: names,
                               unobstructed: baseMap.namePlacements(names, of: under.view, avoiding: under.reserved))
        sharing.store(made, for: key, cost: made.canvas.width * made.canvas.height * SharedLayer.bytesPerPixel)
        return made
    }

    /// What the layers under the pins depend on: the view, the boxes its names and marks keep clear of (`reserved`, which
    /// the insets move), the layers and, with the glow, its points now.
    func sharedLayerKey(_ view: MapView, layers: Set<MapLayer>, now: Date, reserved: [Rect]) -> String {
        let boxes = reserved.flatMap { [$0.x, $0.y, $0.width, $0.height] }.map { String($0.bitPattern, radix: 16) }
        let asked = ([Self.geometryKey(view)] + boxes + [layers.map(\.rawValue).sorted().joined(separator: ",")]).joined(separator: "/")
        return layers.contains(.heat) ? asked + "/" + glowFingerprint(for: view, now: now) : asked
    }

    /// A view's place on the map and its pixels, exactly.
    static func geometryKey(_ view: MapView) -> String {
        ([view.origin.x, view.origin.y, view.pixelsPerMetre, view.zoom, view.scale].map { String($0.bitPattern, radix: 16) }
            + ["\(view.width)x\(view.height)"]).joined(separator: "/")
    }

    /// A hash of the glow's points that reach `view` at `now`, empty when none does; kept per view and snapshot, since
    /// the points change only with the snapshot.
    func glowFingerprint(for view: MapView, now: Date) -> String {
        let revision = Self.geometryKey(view) + "/" + glow.revision(at: now)
        if let known = glowPrints.value(revision) { return known }
        let print = glow.fingerprint(of: view, at: now)
        glowPrints.store(print, for: revision, cost: 1)
        return print
    }

    /// What the glow drawn over `view` at `now` is made of, for a tag: the points that reach the view, the glow's style
    /// and the latitude its sizes are measured at; nil when no point reaches it (nothing is drawn, whatever the style).
    public func glowInputs(for view: MapView, now: Date) -> String? {
        let print = glowFingerprint(for: view, now: now)
        return print.isEmpty ? nil : [print, styleSections.heat, String(glow.latitude.bitPattern, radix: 16)].joined(separator: "\u{1F}")
    }

    /// A transparent overlay tile of the glow at `now`, for clients that bring their own base map.
    public func renderHeatTile(_ tile: TileID, tileSize: Int = 256, scale: Double = 1, now: Date) throws -> Canvas {
        let view = MapView(tile: tile, tileSize: tileSize, scale: scale)
        let canvas = try Canvas(width: view.width, height: view.height)
        try glow.draw(view, at: now, into: canvas)
        return canvas
    }

    /// An XYZ tile of 256 or 512 points at scale 1 or 2.
    public func renderTile(_ tile: TileID, tileSize: Int = 256, scale: Double = 1) throws -> Canvas {
        guard Self.tileSizes.contains(tileSize) else { throw BadField(field: "tileSize", message: "must be 256 or 512, got \(tileSize)") }
        guard Self.tileScales.contains(scale) else { throw BadField(field: "scale", message: "must be 1 or 2, got \(scale)") }
        return try baseMap.render(MapView(tile: tile, tileSize: tileSize, scale: scale))
    }

    /// An XYZ tile (as `renderTile`) encoded as PNG.
    public func tilePNG(_ tile: TileID, tileSize: Int = 256, scale: Double = 1) throws -> [UInt8] {
        try PNGCodec.encode(renderTile(tile, tileSize: tileSize, scale: scale))
    }
}
