import Foundation
import Planar

/// One flattened sub-path: a polyline, closed or open.
public struct Contour: Sendable {
    public var points: [Point]
    public var isClosed: Bool

    public init(points: [Point], isClosed: Bool) {
        self.points = points
        self.isClosed = isClosed
    }
}

/// Turns curves into line segments whose distance from the true curve stays under a tolerance.
/// The segment count comes from the curve's second differences (Wang's formula), as font-rs and tiny-skia do.
public enum PathFlattener {
    /// The default tolerance in pixels.
    public static let defaultTolerance = 0.025
    /// No curve is cut into more segments than this, however large.
    static let maxSegmentsPerCurve = 4096

    /// The sub-paths of `path` as polylines.
    public static func contours(of path: Path, tolerance: Double = defaultTolerance) -> [Contour] {
        var contours: [Contour] = []
        var current: [Point] = []
        var start = Point(0, 0)
        func finish(closed: Bool) {
            if current.count > 1 || (current.count == 1 && !closed) { contours.append(Contour(points: current, isClosed: closed)) }
            current = []
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                current = [p]
                start = p
            case .line(let p):
                if current.isEmpty { current = [start] }
                current.append(p)
            case .quad(let control, let p):
                if current.isEmpty { current = [start] }
                flattenQuad(from: current[current.count - 1], control: control, to: p, tolerance: tolerance, into: &current)
            case .cubic(let c1, let c2, let p):
                if current.isEmpty { current = [start] }
                flattenCubic(from: current[current.count - 1], c1, c2, to: p, tolerance: tolerance, into: &current)
            case .close:
                finish(closed: true)
                current = []
            }
        }
        finish(closed: false)
        return contours
    }

    /// Segments for a quadratic: the error of n uniform segments is |p0 − 2p1 + p2| / (8n²).
    static func flattenQuad(from p0: Point, control p1: Point, to p2: Point, tolerance: Double, into points: inout [Point]) {
        let dd = (p0 - p1 * 2 + p2).length
        let count = segmentCount((dd / (8 * tolerance)).squareRoot())
        for step in 1...count {
            let t = Double(step) / Double(count)
            let u = 1 - t
            points.append(p0 * (u * u) + p1 * (2 * u * t) + p2 * (t * t))
        }
    }

    /// Segments for a cubic: Wang's bound, n = sqrt(3·max|second difference| / (4·tolerance)).
    static func flattenCubic(from p0: Point, _ p1: Point, _ p2: Point, to p3: Point, tolerance: Double, into points: inout [Point]) {
        let dd = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
        let count = segmentCount((3 * dd / (4 * tolerance)).squareRoot())
        for step in 1...count {
            let t = Double(step) / Double(count)
            let u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            points.append(Point(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y))
        }
    }

    private static func segmentCount(_ estimate: Double) -> Int {
        guard estimate.isFinite else { return 1 }
        return min(max(Int(estimate.rounded(.up)), 1), maxSegmentsPerCurve)
    }
}
