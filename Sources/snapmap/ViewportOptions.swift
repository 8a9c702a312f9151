import GeoCore
import MapEngine

/// The viewport options every map command shares; each defaults to the scene's viewport.
enum ViewportOptions {
    static let specs: [OptionSpec] = [
        .value("center", "LAT,LON", "the map center in degrees (default: the scene's)"),
        .value("zoom", "Z", "fractional zoom, 256-point convention (default: the scene's)"),
        .value("size", "WxH", "the viewport in points, 1…8192 a side (default: the scene's 393x852)"),
        .value("scale", "S", "pixels per point, 1…4 (default: the scene's 3)"),
    ]

    /// The scene's viewport with any given options applied (insets kept).
    static func viewport(_ options: ParsedOptions, scene: Scene) throws -> Viewport {
        let base = scene.viewport
        let center = try options.value("center").map { text throws(GeoError) in try Coordinate(parsing: text, field: "--center") } ?? base.center
        let size = try options.value("size").map { text throws(GeoError) in try ScreenSize(parsing: text, field: "--size") } ?? base.size
        let zoom = try options.number("zoom", in: Viewport.zoomRange) ?? base.zoom
        let scale = try options.number("scale", in: Viewport.scaleRange) ?? base.scale
        let insets = size == base.size ? base.insets : .zero
        return try Viewport(center: center, zoom: zoom, size: size, scale: scale, insets: insets)
    }
}
