import Foundation
import Planar

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
/// wedge per corner and a cap per end, each wound the same way, so a non-zero fill merges them without seams,
/// and sharp turns and closed paths need no special cases.
struct Stroker {
    /// Join wedges narrower than this (in pixels) are left out: they cannot change a pixel.
    static let negligibleJoinGap = 0.01
    /// How far the chords of round joins and caps may stray from the true arc, in pixels.
    static let arcTolerance = 0.1

    let halfWidth: Double
    let style: StrokeStyle
    /// The angle one chord of a round join or cap spans while staying within the tolerance.
    let arcStep: Double

    init(style: StrokeStyle, tolerance: Double = Stroker.arcTolerance) {
        self.style = style
        halfWidth = style.width / 2
        let ratio = max(-1, min(1, 1 - tolerance / max(halfWidth, 1e-9)))
        arcStep = max(acos(ratio), 2 * Double.pi / 256)
    }

    /// The stroke outline of every contour as rings.
    func outline(of contours: [Contour]) -> PolygonRings {
        var rings = PolygonRings()
        guard halfWidth > 0, halfWidth.isFinite else { return rings }
        for contour in contours { outline(contour, into: &rings) }
        return rings
    }

    private func outline(_ contour: Contour, into rings: inout PolygonRings) {
        let points = Self.deduplicated(contour.points)
        guard let first = points.first else { return }
        if points.count == 1 {
            if !contour.isClosed, style.cap != .butt { addDot(at: first, into: &rings) }
            return
        }
        let closed = contour.isClosed && points.count > 2
        let segmentCount = closed ? points.count : points.count - 1
        for index in 0..<segmentCount {
            let a = points[index]
            let b = points[(index + 1) % points.count]
            let normal = Self.unitNormal(from: a, to: b) * halfWidth
            rings.add(a + normal); rings.add(b + normal); rings.add(b - normal); rings.add(a - normal)
            rings.closeRing(positive: true)
        }
        let corners = closed ? 0..<points.count : 1..<(points.count - 1)
        for index in corners {
            let previous = points[(index - 1 + points.count) % points.count]
            addJoin(at: points[index], incoming: Self.unitDirection(from: previous, to: points[index]),
                    outgoing: Self.unitDirection(from: points[index], to: points[(index + 1) % points.count]), into: &rings)
        }
        if !closed {
            addCap(at: first, direction: Self.unitDirection(from: points[1], to: first), into: &rings)
            let last = points[points.count - 1]
            addCap(at: last, direction: Self.unitDirection(from: points[points.count - 2], to: last), into: &rings)
        }
    }

    private func addJoin(at vertex: Point, incoming: Point, outgoing: Point, into rings: inout PolygonRings) {
        let turn = incoming.cross(outgoing)
        let cosine = incoming.dot(outgoing)
        if abs(turn) * halfWidth < Self.negligibleJoinGap && cosine > 0 { return }
        let side = turn > 0 ? -1.0 : 1.0
        let n0 = Point(-incoming.y, incoming.x) * (halfWidth * side)
        let n1 = Point(-outgoing.y, outgoing.x) * (halfWidth * side)
        switch style.join {
        case .round:
            rings.add(vertex)
            addArc(around: vertex, from: n0, sweep: side * -acos(max(-1, min(1, cosine))), into: &rings)
        case .bevel:
            rings.add(vertex); rings.add(vertex + n0); rings.add(vertex + n1)
        case .miter:
            let miterRatio = 1 / max((0.5 * (1 + cosine)).squareRoot(), 1e-12)
            rings.add(vertex); rings.add(vertex + n0)
            if miterRatio <= style.miterLimit {
                let bisector = n0 + n1
                rings.add(vertex + bisector * (halfWidth * miterRatio / max(bisector.length, 1e-12)))
            }
            rings.add(vertex + n1)
        }
        rings.closeRing(positive: true)
    }

    private func addCap(at end: Point, direction: Point, into rings: inout PolygonRings) {
        let normal = Point(-direction.y, direction.x) * halfWidth
        switch style.cap {
        case .butt:
            return
        case .round:
            addArc(around: end, from: normal, sweep: -Double.pi, into: &rings)
        case .square:
            let forward = direction * halfWidth
            rings.add(end + normal); rings.add(end + forward + normal); rings.add(end + forward - normal); rings.add(end - normal)
        }
        rings.closeRing(positive: true)
    }

    private func addDot(at center: Point, into rings: inout PolygonRings) {
        if style.cap == .square {
            for corner in [Point(-1, -1), Point(1, -1), Point(1, 1), Point(-1, 1)] { rings.add(center + corner * halfWidth) }
        } else {
            addArc(around: center, from: Point(halfWidth, 0), sweep: 2 * Double.pi, into: &rings)
        }
        rings.closeRing(positive: true)
    }

    /// Adds points on the circle of radius |start| around `center`, from `start` turning by `sweep` radians.
    private func addArc(around center: Point, from start: Point, sweep: Double, into rings: inout PolygonRings) {
        let steps = max(1, Int((abs(sweep) / arcStep).rounded(.up)))
        let angle = sweep / Double(steps)
        let (c, s) = (cos(angle), sin(angle))
        var offset = start
        rings.add(center + offset)
        for _ in 0..<steps {
            offset = Point(offset.x * c - offset.y * s, offset.x * s + offset.y * c)
            rings.add(center + offset)
        }
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

    /// Strokes several groups of contours, each with its own style, as one union in one paint: where they
    /// overlap nothing is blended twice, and the canvas is swept once. Groups thinner than a pixel are drawn on
    /// their own so that each fades by its own width.
    public func stroke(groups: [(contours: [Contour], style: StrokeStyle)], paint: Paint, opacity: Double = 1) {
        var union = PolygonRings()
        for (contours, style) in groups where !contours.isEmpty && style.width.isFinite && style.width > 0 {
            if style.width < 1 {
                stroke(contours: contours, style: style, paint: paint, opacity: opacity)
            } else {
                union.append(Stroker(style: style).outline(of: contours))
            }
        }
        fill(rings: union, paint: paint, rule: .nonZero, opacity: opacity)
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
        fill(rings: Stroker(style: deviceStyle).outline(of: contours), paint: paint, rule: .nonZero, opacity: opacity * fade)
    }
}
