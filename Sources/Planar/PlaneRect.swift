/// An axis-aligned rectangle of a flat 2-D space named by `Space`, from its corner of least x and y: one type and
/// one set of operations for the pixel rectangles of a canvas and the point rectangles of a screen.
@frozen
public struct PlaneRect<Space>: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    @inlinable public var minX: Double { x }
    @inlinable public var minY: Double { y }
    @inlinable public var maxX: Double { x + width }
    @inlinable public var maxY: Double { y + height }
    @inlinable public var center: PlanePoint<Space> { PlanePoint(x + width / 2, y + height / 2) }

    /// Whether the point lies inside or on the edge.
    @inlinable
    public func contains(_ point: PlanePoint<Space>) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// Whether `other` lies entirely inside this rectangle (edges may touch).
    @inlinable
    public func contains(_ other: PlaneRect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// Whether the two share interior area (touching edges do not count).
    @inlinable
    public func overlaps(_ other: PlaneRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// This rectangle grown by `amount` on every side.
    @inlinable
    public func outset(by amount: Double) -> PlaneRect {
        PlaneRect(x: x - amount, y: y - amount, width: width + 2 * amount, height: height + 2 * amount)
    }

    /// The smallest rectangle holding both.
    @inlinable
    public func union(_ other: PlaneRect) -> PlaneRect {
        let minX = min(self.minX, other.minX)
        let minY = min(self.minY, other.minY)
        return PlaneRect(x: minX, y: minY, width: max(maxX, other.maxX) - minX, height: max(maxY, other.maxY) - minY)
    }
}
