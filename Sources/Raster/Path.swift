import Foundation
import Planar

/// A vector path: sub-paths of lines and quadratic and cubic Bézier curves, in pixels.
public struct Path: Sendable {
    public enum Element: Hashable, Sendable {
        case move(Point)
        case line(Point)
        case quad(control: Point, to: Point)
        case cubic(control1: Point, control2: Point, to: Point)
        case close
    }

    public private(set) var elements: [Element] = []

    public init() {}

    public mutating func move(to point: Point) { elements.append(.move(point)) }
    public mutating func line(to point: Point) { elements.append(.line(point)) }
    public mutating func quad(control: Point, to point: Point) { elements.append(.quad(control: control, to: point)) }
    public mutating func cubic(control1: Point, control2: Point, to point: Point) {
        elements.append(.cubic(control1: control1, control2: control2, to: point))
    }
    public mutating func close() { elements.append(.close) }

    /// Appends every element of another path.
    public mutating func append(_ other: Path) { elements.append(contentsOf: other.elements) }

    public var isEmpty: Bool { elements.isEmpty }

    /// A closed polygon through the points.
    public static func polygon(_ points: [Point]) -> Path {
        var path = Path()
        path.addPolyline(points, closed: true)
        return path
    }

    /// Appends an open or closed polyline as its own sub-path.
    public mutating func addPolyline(_ points: [Point], closed: Bool) {
        guard let first = points.first else { return }
        move(to: first)
        for point in points.dropFirst() { line(to: point) }
        if closed { close() }
    }

    public static func rect(_ rect: Rect) -> Path {
        polygon([Point(rect.minX, rect.minY), Point(rect.maxX, rect.minY), Point(rect.maxX, rect.maxY), Point(rect.minX, rect.maxY)])
    }

    /// The circle's magic number: cubic control distance for a quarter circle.
    static let kappa = 0.552_284_749_830_793_4

    /// A circle drawn as four cubic curves.
    public static func circle(center: Point, radius: Double) -> Path {
        ellipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    public static func ellipse(in rect: Rect) -> Path {
        roundedRect(rect, radius: 0, isEllipse: true)
    }

    /// A rectangle with corners rounded by `radius` (clamped to half the shorter side): a capsule at most.
    public static func roundedRect(_ rect: Rect, radius: Double) -> Path {
        roundedRect(rect, radius: radius, isEllipse: false)
    }

    private static func roundedRect(_ rect: Rect, radius: Double, isEllipse: Bool) -> Path {
        let rx = isEllipse ? rect.width / 2 : min(max(radius, 0), rect.width / 2, rect.height / 2)
        let ry = isEllipse ? rect.height / 2 : rx
        let kx = rx * kappa
        let ky = ry * kappa
        var path = Path()
        path.move(to: Point(rect.minX + rx, rect.minY))
        path.line(to: Point(rect.maxX - rx, rect.minY))
        path.cubic(control1: Point(rect.maxX - rx + kx, rect.minY), control2: Point(rect.maxX, rect.minY + ry - ky), to: Point(rect.maxX, rect.minY + ry))
        path.line(to: Point(rect.maxX, rect.maxY - ry))
        path.cubic(control1: Point(rect.maxX, rect.maxY - ry + ky), control2: Point(rect.maxX - rx + kx, rect.maxY), to: Point(rect.maxX - rx, rect.maxY))
        path.line(to: Point(rect.minX + rx, rect.maxY))
        path.cubic(control1: Point(rect.minX + rx - kx, rect.maxY), control2: Point(rect.minX, rect.maxY - ry + ky), to: Point(rect.minX, rect.maxY - ry))
        path.line(to: Point(rect.minX, rect.minY + ry))
        path.cubic(control1: Point(rect.minX, rect.minY + ry - ky), control2: Point(rect.minX + rx - kx, rect.minY), to: Point(rect.minX + rx, rect.minY))
        path.close()
        return path
    }

    /// The path with every point mapped by `transform`.
    public func transformed(by transform: AffineTransform) -> Path {
        mapped(transform.apply)
    }

    /// The path with every point (ends and controls) passed through `map`.
    public func mapped(_ map: (Point) -> Point) -> Path {
        var result = Path()
        result.elements = elements.map { element in
            switch element {
            case .move(let p): return .move(map(p))
            case .line(let p): return .line(map(p))
            case .quad(let c, let p): return .quad(control: map(c), to: map(p))
            case .cubic(let c1, let c2, let p): return .cubic(control1: map(c1), control2: map(c2), to: map(p))
            case .close: return .close
            }
        }
        return result
    }

    /// The bounds of every point and control point (a superset of the curve's bounds); nil when empty.
    public var controlBounds: Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) {
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        for element in elements {
            switch element {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p): add(c); add(p)
            case .cubic(let c1, let c2, let p): add(c1); add(c2); add(p)
            case .close: break
            }
        }
        return minX.isFinite ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil
    }
}
