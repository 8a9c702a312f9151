import Foundation
import Planar

extension Viewport {
    /// The camera that shows `rect` inside the viewport minus its insets and `padding`, centered in that
    /// free area, at the largest zoom that fits, capped at `maxZoom` (like MapLibre's `cameraForBounds`).
    /// A rectangle of no size (one point) is centered at `maxZoom`.
    public func camera(fitting rect: MercatorRect, padding: EdgeInsets = .zero, maxZoom: Double) throws(BadField) -> Camera {
        try BadField.check(maxZoom, "maxZoom", in: Self.zoomRange)
        _ = try padding.validated(field: "padding", limit: .greatestFiniteMagnitude)
        let free = bounds.inset(by: insets + padding)
        guard free.width > 0, free.height > 0 else {
            throw BadField(field: "padding", message: "insets plus padding leave no room in the \(size.width)×\(size.height) pt viewport")
        }
        let worldPointsNeeded = max(rect.width / free.width, rect.height / free.height)
        var zoom = maxZoom
        if worldPointsNeeded > 0 {
            let fittingZoom = log2(WebMercator.worldSize / (worldPointsNeeded * Self.tileSize))
            zoom = min(max(fittingZoom, Self.zoomRange.lowerBound), maxZoom)
        }
        let metresPerPoint = WebMercator.worldSize / (Self.tileSize * pow(2, zoom))
        let offset = ScreenPoint(x: free.center.x - size.width / 2, y: free.center.y - size.height / 2)
        let center = MercatorPoint(x: rect.center.x - offset.x * metresPerPoint, y: rect.center.y + offset.y * metresPerPoint)
        let clamped = MercatorPoint(x: center.x, y: min(max(center.y, -WebMercator.halfWorld), WebMercator.halfWorld))
        return Camera(center: try WebMercator.unproject(Self.wrapped(clamped)), zoom: zoom)
    }

    /// The camera that shows a bounding box in degrees.
    public func camera(fitting box: GeoBoundingBox, padding: EdgeInsets = .zero, maxZoom: Double) throws(BadField) -> Camera {
        try camera(fitting: box.mercatorRect(), padding: padding, maxZoom: maxZoom)
    }

    /// The camera that shows every coordinate (like MapKit's `showAnnotations` with edge padding).
    public func camera(fitting coordinates: [Coordinate], padding: EdgeInsets = .zero, maxZoom: Double) throws(BadField) -> Camera {
        guard let box = GeoBoundingBox(enclosing: coordinates) else {
            throw BadField(field: "coordinates", message: "need at least one coordinate to fit")
        }
        return try camera(fitting: box, padding: padding, maxZoom: maxZoom)
    }

    private static func wrapped(_ point: MercatorPoint) -> MercatorPoint {
        var x = point.x
        if x > WebMercator.halfWorld { x -= WebMercator.worldSize }
        if x < -WebMercator.halfWorld { x += WebMercator.worldSize }
        return MercatorPoint(x: x, y: point.y)
    }
}
