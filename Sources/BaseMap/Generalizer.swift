import GeoCore
import Raster

/// Turns stored parts into pixel contours for one view: points closer than a tolerance to the last kept one
/// are dropped (measured in metres scaled to pixels, so every tile and frame at a zoom keeps the same
/// points and their edges meet), and features smaller than a minimum area are left out.
struct Generalizer {
    let view: MapView
    /// Squared tolerance in metres.
    let toleranceSquared: Double
    /// Minimum bounding-box area in square metres.
    let minArea: Double

    init(view: MapView, tolerancePixels: Double, minAreaPixels: Double) {
        self.view = view
        let metres = tolerancePixels / view.pixelsPerMetre
        toleranceSquared = metres * metres
        minArea = minAreaPixels / (view.pixelsPerMetre * view.pixelsPerMetre)
    }

    /// Whether a feature is big enough to draw at this view.
    func isVisible(_ table: FeatureTable, feature: Int) -> Bool {
        let bounds = table.bounds(of: feature)
        return max(bounds.width, 1e-9) * max(bounds.height, 1e-9) >= minArea || max(bounds.width, bounds.height) * view.pixelsPerMetre >= 1
    }

    /// The simplified pixel contour of one part.
    func contour(_ table: FeatureTable, part: Int, closed: Bool) -> Contour {
        let range = table.points(ofPart: part)
        var points: [Point] = []
        points.reserveCapacity(range.count)
        var lastX = table.xs[range.lowerBound]
        var lastY = table.ys[range.lowerBound]
        points.append(Self.point(view.pixel(x: lastX, y: lastY)))
        let last = range.upperBound - 1
        for index in (range.lowerBound + 1)..<range.upperBound {
            let x = table.xs[index]
            let y = table.ys[index]
            let dx = x - lastX
            let dy = y - lastY
            if dx * dx + dy * dy >= toleranceSquared || index == last {
                points.append(Self.point(view.pixel(x: x, y: y)))
                lastX = x
                lastY = y
            }
        }
        return Contour(points: points, isClosed: closed)
    }

    @inline(__always)
    private static func point(_ pixel: (x: Double, y: Double)) -> Point { Point(pixel.x, pixel.y) }

    /// Every part of every given feature as simplified contours.
    func contours(_ table: FeatureTable, features: [Int], closed: Bool) -> [Contour] {
        var result: [Contour] = []
        for feature in features where isVisible(table, feature: feature) {
            for part in table.parts(of: feature) { result.append(contour(table, part: part, closed: closed)) }
        }
        return result
    }
}
