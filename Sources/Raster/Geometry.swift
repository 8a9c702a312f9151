import Foundation

/// A point in pixels (x right, y down).
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public init(_ x: Double, _ y: Double) {
        self.init(x: x, y: y)
    }

    public static func + (lhs: Point, rhs: Point) -> Point { Point(lhs.x + rhs.x, lhs.y + rhs.y) }
    public static func - (lhs: Point, rhs: Point) -> Point { Point(lhs.x - rhs.x, lhs.y - rhs.y) }
    public static func * (lhs: Point, rhs: Double) -> Point { Point(lhs.x * rhs, lhs.y * rhs) }

    public var length: Double { (x * x + y * y).squareRoot() }

    /// The dot product.
    public func dot(_ other: Point) -> Double { x * other.x + y * other.y }

    /// The z of the cross product (positive when `other` turns clockwise on screen, y down).
    public func cross(_ other: Point) -> Double { x * other.y - y * other.x }
}

/// An axis-aligned rectangle in pixels.
public struct Rect: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: Point { Point(x + width / 2, y + height / 2) }

    /// This rectangle grown by `amount` on every side.
    public func outset(by amount: Double) -> Rect {
        Rect(x: x - amount, y: y - amount, width: width + 2 * amount, height: height + 2 * amount)
    }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        let minX = min(self.minX, other.minX)
        let minY = min(self.minY, other.minY)
        return Rect(x: minX, y: minY, width: max(maxX, other.maxX) - minX, height: max(maxY, other.maxY) - minY)
    }
}

/// A 2-D affine map: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct AffineTransform: Hashable, Sendable {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    public static func rotation(_ radians: Double) -> AffineTransform {
        AffineTransform(a: cos(radians), b: sin(radians), c: -sin(radians), d: cos(radians), tx: 0, ty: 0)
    }

    /// The map that applies `self` first, then `next`.
    public func then(_ next: AffineTransform) -> AffineTransform {
        AffineTransform(a: next.a * a + next.c * b, b: next.b * a + next.d * b,
                        c: next.a * c + next.c * d, d: next.b * c + next.d * d,
                        tx: next.a * tx + next.c * ty + next.tx, ty: next.b * tx + next.d * ty + next.ty)
    }

    public func apply(_ point: Point) -> Point {
        Point(a * point.x + c * point.y + tx, b * point.x + d * point.y + ty)
    }

    /// How much the map stretches lengths at most (for stroke widths and flattening tolerances).
    public var maxScale: Double {
        let sum = a * a + b * b + c * c + d * d
        let det = a * d - b * c
        let root = max(sum * sum - 4 * det * det, 0).squareRoot()
        return ((sum + root) / 2).squareRoot()
    }
}
