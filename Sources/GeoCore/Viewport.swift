import Foundation
import Planar

/// What a screen shows: a center, a fractional zoom (256-point convention), a size in points,
/// a scale in pixels per point and the insets covered by UI. North is up.
public struct Viewport: Hashable, Sendable, Codable {
    public static let zoomRange: ClosedRange<Double> = 0...22
    public static let sideRange: ClosedRange<Double> = 1...8192
    public static let scaleRange: ClosedRange<Double> = 1...4
    /// The side of a zoom-0 world in points.
    public static let tileSize = 256.0

    public let center: Coordinate
    public let zoom: Double
    public let size: ScreenSize
    public let scale: Double
    public let insets: EdgeInsets

    /// Validates every field; errors name it and its allowed range.
    public init(center: Coordinate, zoom: Double, size: ScreenSize, scale: Double = 1, insets: EdgeInsets = .zero) throws(BadField) {
        try center.checkProjectable(field: "center.lat")
        try BadField.check(zoom, "zoom", in: Self.zoomRange)
        try BadField.check(size.width, "size.width", in: Self.sideRange)
        try BadField.check(size.height, "size.height", in: Self.sideRange)
        try BadField.check(scale, "scale", in: Self.scaleRange)
        _ = try insets.validated(field: "insets", limit: max(size.width, size.height))
        guard insets.left + insets.right < size.width, insets.top + insets.bottom < size.height else {
            throw BadField(field: "insets", message: "must leave part of the \(size.width)×\(size.height) pt viewport free")
        }
        self.center = center
        self.zoom = zoom
        self.size = size
        self.scale = scale
        self.insets = insets
    }

    /// The same viewport looking at another camera.
    public func with(_ camera: Camera) throws(BadField) -> Viewport {
        try Viewport(center: camera.center, zoom: camera.zoom, size: size, scale: scale, insets: insets)
    }

    /// The same viewport with other insets.
    public func with(insets: EdgeInsets) throws(BadField) -> Viewport {
        try Viewport(center: center, zoom: zoom, size: size, scale: scale, insets: insets)
    }

    public var camera: Camera { Camera(center: center, zoom: zoom) }

    /// The size in pixels (points times scale, rounded).
    public var pixelWidth: Int { Int((size.width * scale).rounded()) }
    public var pixelHeight: Int { Int((size.height * scale).rounded()) }

    /// The world's width in points at this zoom.
    public var worldSizeInPoints: Double { Self.tileSize * pow(2, zoom) }

    /// Ground metres per point along the mercator axes (the true ground distance shrinks by cos(latitude)).
    public var metresPerPoint: Double { WebMercator.worldSize / worldSizeInPoints }

    /// Metres on the ground per point at the center's latitude.
    public var groundMetresPerPoint: Double { metresPerPoint * cos(center.lat * .pi / 180) }

    public var centerMercator: MercatorPoint { WebMercator.projectUnchecked(lat: center.lat, lon: center.lon) }

    /// The whole viewport as a rectangle in points.
    public var bounds: ScreenRect { ScreenRect(x: 0, y: 0, width: size.width, height: size.height) }

    /// The part of the viewport that the insets leave free.
    public var freeRect: ScreenRect { bounds.inset(by: insets) }

    /// The screen point of a mercator point.
    public func point(forMercator point: MercatorPoint) -> ScreenPoint {
        let c = centerMercator
        let k = 1 / metresPerPoint
        return ScreenPoint(x: size.width / 2 + (point.x - c.x) * k, y: size.height / 2 - (point.y - c.y) * k)
    }

    /// The screen point of a coordinate (which must be within Web Mercator's latitudes).
    public func point(for coordinate: Coordinate) throws(BadField) -> ScreenPoint {
        point(forMercator: try WebMercator.project(coordinate))
    }

    /// The mercator point under a screen point.
    public func mercator(at point: ScreenPoint) -> MercatorPoint {
        let c = centerMercator
        return MercatorPoint(x: c.x + (point.x - size.width / 2) * metresPerPoint,
                             y: c.y - (point.y - size.height / 2) * metresPerPoint)
    }

    /// The coordinate under a screen point; fails off the edge of the world.
    public func coordinate(at point: ScreenPoint) throws(BadField) -> Coordinate {
        try WebMercator.unproject(mercator(at: point))
    }

    /// The mercator rectangle the viewport shows.
    public var visibleMercatorRect: MercatorRect {
        let topLeft = mercator(at: ScreenPoint(x: 0, y: 0))
        let bottomRight = mercator(at: ScreenPoint(x: size.width, y: size.height))
        return MercatorRect(minX: topLeft.x, minY: bottomRight.y, maxX: bottomRight.x, maxY: topLeft.y)
    }

    /// The area the viewport shows, in degrees (clamped to the world).
    public var visibleBounds: GeoBoundingBox { visibleMercatorRect.geoBounds }
}

/// Where a map looks: a center and a fractional zoom.
public struct Camera: Hashable, Sendable, Codable {
    public let center: Coordinate
    public let zoom: Double

    public init(center: Coordinate, zoom: Double) {
        self.center = center
        self.zoom = zoom
    }
}
