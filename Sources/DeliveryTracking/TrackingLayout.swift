import GeoCore
import Orders

/// The tracking map of a live order, laid out on the phone's screen: the camera (so a phone can take its own
/// snapshot) and every mark projected through it, in points. Framing follows the delivery app: the whole drive
/// (the planned route, and any detour) above the sheet with 40 pt margins; once the Dasher has 250 m or less to go,
/// only the last 250 m of the drive with 50 pt margins, so their last stretch crosses most of the map.
public struct TrackingLayout: ScreenSnapshot, Sendable, Codable, Equatable {
    /// How the camera was chosen.
    public enum Framing: String, Sendable, Codable { case route, lastStretch }
    /// At most this many metres left frames the last stretch.
    public static let lastStretchMeters = 250.0

    public let state: OrderState
    public let framing: Framing
    public let camera: Camera
    public let size: ScreenSize
    public let scale: Double
    public let insets: EdgeInsets
    public let margin: Double
    /// The area above the sheet and below the status bar; what is framed sits inside it, `margin` points in.
    public let freeRect: ScreenRect
    /// The red line: from the Dasher home while they show, the planned drive before pickup, none at the end.
    public let line: [ScreenPoint]
    public let home: ScreenPoint
    public let store: ScreenPoint
    /// The Dasher's red circle, at their matched position, only while the customer may see it.
    public let dasher: ScreenPoint?

    /// Lays out `map` on a screen of `size` at `scale` with the sheet covering `sheet` of its height; the
    /// framing decides the margins.
    public init(_ map: CustomerMap, size: ScreenSize, scale: Double, sheet: Double) throws {
        let framing: Framing = (map.remainingMeters ?? .infinity) <= Self.lastStretchMeters ? .lastStretch : .route
        let options = try RouteFrameOptions(size: size, scale: scale, sheet: sheet,
                                            margin: framing == .route ? RouteFrameOptions.routeMargin : RouteFrameOptions.lastStretchMargin)
        var framed = [map.store, map.home] + map.planned + (map.remaining ?? [])
        if framing == .lastStretch {
            framed = [map.home] + (map.remaining ?? []) + Self.last(Self.lastStretchMeters, of: map.planned)
        }
        let viewport = try DeliveryTracker.fit(framed, options: options)
        func project(_ coordinate: Coordinate) throws -> ScreenPoint { try viewport.point(for: coordinate) }
        state = map.state
        self.framing = framing
        camera = viewport.camera
        self.size = size
        self.scale = scale
        insets = viewport.insets
        margin = options.margin
        freeRect = viewport.freeRect
        line = try map.line.map(project)
        home = try project(map.home)
        store = try project(map.store)
        dasher = try map.dasher.map(project)
    }

    /// The last `metres` of `line` (all of it when shorter).
    static func last(_ metres: Double, of line: [Coordinate]) -> [Coordinate] {
        guard let polyline = try? Polyline(line), polyline.length > metres,
              let tail = try? polyline.remainder(fromDistance: polyline.length - metres) else { return line }
        return tail
    }
}
