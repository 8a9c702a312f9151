import Foundation
// Re-exported: a module that imports Raster uses its points and rectangles with Planar's operations.
@_exported import Planar

/// The space of a canvas's pixels: x right, y down, from the top-left corner of pixel (0, 0).
public enum Pixels {}

/// A point in pixels.
public typealias Point = PlanePoint<Pixels>

/// An axis-aligned rectangle in pixels.
public typealias Rect = PlaneRect<Pixels>

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
