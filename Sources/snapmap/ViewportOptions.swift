/// The viewport options every map command shares; each defaults to the scene's viewport.
enum ViewportOptions {
    static let specs: [OptionSpec] = [
        .value("center", "LAT,LON", "the map center in degrees (default: the scene's)"),
        .value("zoom", "Z", "fractional zoom, 256-point convention (default: the scene's)"),
        .value("size", "WxH", "the viewport in points, 1…8192 a side (default: the scene's 393x852)"),
        .value("scale", "S", "pixels per point, 1…4 (default: the scene's 3)"),
    ]
}
