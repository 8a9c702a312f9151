import GeoCore
import Raster

extension ScreenRect {
    /// This rectangle on a canvas of `scale` pixels a point: the one conversion of screen rectangles to canvas pixels.
    public func pixels(scale: Double) -> Rect {
        Rect(x: x * scale, y: y * scale, width: width * scale, height: height * scale)
    }
}
