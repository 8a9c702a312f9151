import Foundation

/// How a line is drawn: its width, the shape of its corners and of its ends.
public struct StrokeStyle: Hashable, Sendable {
    public enum Join: String, Hashable, Sendable, Codable { case miter, round, bevel }
    public enum Cap: String, Hashable, Sendable, Codable { case butt, round, square }

    public var width: Double
    public var join: Join
    public var cap: Cap
    /// The longest miter, as a multiple of the width, before it falls back to a bevel (SVG's default is 4).
    public var miterLimit: Double

    public init(width: Double, join: Join = .round, cap: Cap = .round, miterLimit: Double = 4) {
        self.width = width
        self.join = join
        self.cap = cap
        self.miterLimit = miterLimit
    }
}

/// Turns polylines into the outline of their stroke as a union of simple pieces: a quad per segment, a join
/// per corner and a cap per end, each wound the same way, so a non-zero fill merges them without seams and
/// sharp turns and closed paths need no special cases.
enum Stroker {
    /// Join wedges narrower than this (in pixels) are left out: they cannot change a pixel.
    static let negligibleJoinGap = 0.01

    static func outline(of contours: [Contour], style: StrokeStyle, tolerance: Double = PathFlattener.defaultTolerance) -> [Contour] {
        let halfWidth = style.width / 2
        guard halfWidth > 0, halfWidth.isFinite else { return [] }
        var pieces: [Contour] = []
        let circle = circlePolygon(radius: halfWidth, tolerance: tolerance)
        for contour in contours {
            let points = deduplicated(contour.points)
            if points.count == 1 {
                if !contour.isClosed { addCap(at: points[0], direction: Point(1, 0), style: style, circle: circle, to: &pieces, bothSides: true) }
                continue
            }
            let closed = contour.isClosed && points.count > 2
            let segmentCount = closed ? points.count : points.count - 1
            for index in 0..<segmentCount {
                let a = points[index]
                let b = points[(index + 1) % points.count]
                let normal = unitNormal(from: a, to: b) * halfWidth
                pieces.append(oriented([a + normal, b + normal, b - normal, a - normal]))
            }
            let corners = closed ? Array(0..<points.count) : Array(1..<(points.count - 1))
            for index in corners {
                let previous = points[(index - 1 + points.count) % points.count]
                let next = points[(index + 1) % points.count]
                addJoin(at: points[index], from: previous, to: next, style: style, circle: circle, to: &pieces)
            }
            if !closed {
                addCap(at: points[0], direction: unitDirection(from: points[1], to: points[0]), style: style, circle: circle, to: &pieces, bothSides: false)
                let last = points.count - 1
                addCap(at: points[last], direction: unitDirection(from: points[last - 1], to: points[last]), style: style, circle: circle, to: &pieces, bothSides: false)
            }
        }
        return pieces
    }

    private static func addJoin(at vertex: Point, from previous: Point, to next: Point, style: StrokeStyle, circle: [Point], to pieces: inout [Contour]) {
        let halfWidth = style.width / 2
        let incoming = unitDirection(from: previous, to: vertex)
        let outgoing = unitDirection(from: vertex, to: next)
        let turn = incoming.cross(outgoing)
        let cosine = incoming.dot(outgoing)
        if abs(turn) * halfWidth < negligibleJoinGap && cosine > 0 { return }
        switch style.join {
        case .round:
            pieces.append(Contour(points: circle.map { $0 + vertex }, isClosed: true))
        case .bevel, .miter:
            let side = turn > 0 ? -1.0 : 1.0
            let n0 = Point(-incoming.y, incoming.x) * (halfWidth * side)
            let n1 = Point(-outgoing.y, outgoing.x) * (halfWidth * side)
            let bevel = [vertex, vertex + n0, vertex + n1]
            guard style.join == .miter else {
                pieces.append(oriented(bevel))
                return
            }
            let miterRatio = 1 / max((0.5 * (1 + cosine)).squareRoot(), 1e-12)
            if miterRatio <= style.miterLimit {
                let bisector = n0 + n1
                let tip = vertex + bisector * (halfWidth * miterRatio / max(bisector.length, 1e-12))
                pieces.append(oriented([vertex, vertex + n0, tip, vertex + n1]))
            } else {
                pieces.append(oriented(bevel))
            }
        }
    }

    private static func addCap(at end: Point, direction: Point, style: StrokeStyle, circle: [Point], to pieces: inout [Contour], bothSides: Bool) {
        let halfWidth = style.width / 2
        switch style.cap {
        case .butt:
            return
        case .round:
            pieces.append(Contour(points: circle.map { $0 + end }, isClosed: true))
        case .square:
            let normal = Point(-direction.y, direction.x) * halfWidth
            let forward = direction * halfWidth
            let back = bothSides ? end - forward : end
            pieces.append(oriented([back + normal, end + forward + normal, end + forward - normal, back - normal]))
        }
    }

    /// A circle as a polygon whose chords stay within `tolerance` of the arc.
    static func circlePolygon(radius: Double, tolerance: Double) -> [Point] {
        let ratio = max(-1, min(1, 1 - tolerance / radius))
        let count = min(max(Int((Double.pi / acos(ratio)).rounded(.up)), 8), 256)
        return (0..<count).map { step in
            let angle = 2 * Double.pi * Double(step) / Double(count)
            return Point(radius * cos(angle), radius * sin(angle))
        }
    }

    /// A closed piece with positive signed area, so all pieces wind alike.
    private static func oriented(_ points: [Point]) -> Contour {
        var area = 0.0
        for index in points.indices {
            area += points[index].cross(points[(index + 1) % points.count])
        }
        return Contour(points: area < 0 ? points.reversed() : points, isClosed: true)
    }

    private static func deduplicated(_ points: [Point]) -> [Point] {
        var result: [Point] = []
        result.reserveCapacity(points.count)
        for point in points where result.last.map({ ($0 - point).length > 1e-9 }) ?? true { result.append(point) }
        return result
    }

    private static func unitDirection(from a: Point, to b: Point) -> Point {
        let d = b - a
        let length = d.length
        return length > 0 ? d * (1 / length) : Point(1, 0)
    }

    private static func unitNormal(from a: Point, to b: Point) -> Point {
        let d = unitDirection(from: a, to: b)
        return Point(-d.y, d.x)
    }
}

extension Canvas {
    /// Strokes a path. Lines thinner than a pixel are drawn one pixel wide at proportionally less coverage,
    /// so hairlines fade instead of breaking up.
    public func stroke(_ path: Path, style: StrokeStyle, paint: Paint, transform: AffineTransform = .identity, opacity: Double = 1) {
        let device = transform == .identity ? path : path.transformed(by: transform)
        var deviceStyle = style
        deviceStyle.width = style.width * transform.maxScale
        stroke(contours: PathFlattener.contours(of: device), style: deviceStyle, paint: paint, opacity: opacity)
    }

    /// Strokes already-flattened contours in pixels.
    public func stroke(contours: [Contour], style: StrokeStyle, paint: Paint, opacity: Double = 1) {
        guard style.width > 0, style.width.isFinite else { return }
        var deviceStyle = style
        var fade = 1.0
        if style.width < 1 {
            fade = style.width
            deviceStyle.width = 1
        }
        fill(contours: Stroker.outline(of: contours, style: deviceStyle), paint: paint, rule: .nonZero, opacity: opacity * fade)
    }
}
