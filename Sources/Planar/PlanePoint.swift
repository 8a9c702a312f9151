/// A point of a flat 2-D space named by `Space` (a canvas's pixels, the screen's points, mercator metres): one
/// type and one set of operations for every space, and no mixing of spaces without a conversion that says so.
@frozen
public struct PlanePoint<Space>: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable
    public init(_ x: Double, _ y: Double) {
        self.init(x: x, y: y)
    }

    @inlinable
    public static func + (lhs: PlanePoint, rhs: PlanePoint) -> PlanePoint { PlanePoint(lhs.x + rhs.x, lhs.y + rhs.y) }
    @inlinable
    public static func - (lhs: PlanePoint, rhs: PlanePoint) -> PlanePoint { PlanePoint(lhs.x - rhs.x, lhs.y - rhs.y) }
    @inlinable
    public static func * (lhs: PlanePoint, rhs: Double) -> PlanePoint { PlanePoint(lhs.x * rhs, lhs.y * rhs) }

    /// The distance from the origin.
    @inlinable
    public var length: Double { (x * x + y * y).squareRoot() }

    /// The dot product.
    @inlinable
    public func dot(_ other: PlanePoint) -> Double { x * other.x + y * other.y }

    /// The z of the cross product (positive when `other` turns clockwise on a y-down screen).
    @inlinable
    public func cross(_ other: PlanePoint) -> Double { x * other.y - y * other.x }
}
