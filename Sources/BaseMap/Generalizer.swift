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

    /// The simplified pixel contour of one part. With `rows` (the rows of the canvas a closed part is filled on),
    /// a point whose neighbours lie, like it, on or above the first row or on or below the end is left out: the
    /// two edges it joined add no coverage there, nor does the edge that replaces them, so the fill is the same
    /// to the bit, and a ring around the whole city costs a band of a frame only its points near the band.
    func contour(_ table: FeatureTable, part: Int, closed: Bool, rows: Range<Double>? = nil) -> Contour {
        let range = table.points(ofPart: part)
        var points: [Point] = []
        points.reserveCapacity(range.count)
        func append(_ point: Point) {
            if let rows, points.count >= 2 {
                let (a, b) = (points[points.count - 2], points[points.count - 1])
                if (a.y <= rows.lowerBound && b.y <= rows.lowerBound && point.y <= rows.lowerBound)
                    || (a.y >= rows.upperBound && b.y >= rows.upperBound && point.y >= rows.upperBound) {
                    points[points.count - 1] = point
                    return
                }
            }
            points.append(point)
        }
        var lastX = table.xs[range.lowerBound]
        var lastY = table.ys[range.lowerBound]
        append(Self.point(view.pixel(x: lastX, y: lastY)))
        let last = range.upperBound - 1
        for index in (range.lowerBound + 1)..<range.upperBound {
            let x = table.xs[index]
            let y = table.ys[index]
            let dx = x - lastX
            let dy = y - lastY
            if dx * dx + dy * dy >= toleranceSquared || index == last {
                append(Self.point(view.pixel(x: x, y: y)))
                lastX = x
                lastY = y
            }
        }
        return Contour(points: points, isClosed: closed)
    }

    @inline(__always)
    private static func point(_ pixel: (x: Double, y: Double)) -> Point { Point(pixel.x, pixel.y) }

    /// Every part of every given feature as simplified closed contours, to fill on a canvas showing `rows` of the
    /// view (see `contour`).
    func rings(_ table: FeatureTable, features: [Int], rows: Range<Double>) -> [Contour] {
        var result: [Contour] = []
        for feature in features where isVisible(table, feature: feature) {
            for part in table.parts(of: feature) { result.append(contour(table, part: part, closed: true, rows: rows)) }
        }
        return result
    }
}
