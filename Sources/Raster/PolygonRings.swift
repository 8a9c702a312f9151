import Planar

/// Closed rings in one flat array of points with the end offset of each ring (the kdbush way): what fills
/// and the stroker produce without allocating per piece.
public struct PolygonRings: Sendable {
    public private(set) var points: [Point] = []
    /// The exclusive end index in `points` of each ring.
    public private(set) var ringEnds: [Int] = []

    public init() {}

    /// Rings from contours (each is closed implicitly).
    public init(_ contours: [Contour]) {
        for contour in contours where contour.points.count > 1 {
            points.append(contentsOf: contour.points)
            ringEnds.append(points.count)
        }
    }

    public var ringCount: Int { ringEnds.count }

    /// The index range of ring `index` in `points`.
    public func ring(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ringEnds[index - 1])..<ringEnds[index] }

    public mutating func reserveCapacity(points count: Int) { points.reserveCapacity(count) }

    /// Adds a point to the ring being built.
    @inline(__always)
    public mutating func add(_ point: Point) { points.append(point) }

    /// Ends the ring being built; with `positive`, reverses it if needed so its signed area is positive
    /// (all such rings wind alike, so a non-zero fill unions them). Rings of fewer than 3 points are dropped.
    public mutating func closeRing(positive: Bool = false) {
        let start = ringEnds.last ?? 0
        guard points.count - start >= 3 else {
            points.removeSubrange(start...)
            return
        }
        if positive {
            var area = 0.0
            var previous = points[points.count - 1]
            for index in start..<points.count {
                area += previous.cross(points[index])
                previous = points[index]
            }
            if area < 0 { points[start...].reverse() }
        }
        ringEnds.append(points.count)
    }

    /// Appends every ring of another set.
    public mutating func append(_ other: PolygonRings) {
        let offset = points.count
        points.append(contentsOf: other.points)
        ringEnds.append(contentsOf: other.ringEnds.map { $0 + offset })
    }
}
