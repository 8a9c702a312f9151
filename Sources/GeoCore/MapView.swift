import Foundation
import Planar

/// A pixel window onto the mercator plane: where pixel (0, 0) is, how many pixels a metre is, the size in
/// pixels, and the style zoom and scale that choose colours and widths. Frames and tiles both become one.
public struct MapView: Sendable, Equatable {
    /// The mercator point at the top-left corner of pixel (0, 0).
    public let origin: MercatorPoint
    public let pixelsPerMetre: Double
    public let width: Int
    public let height: Int
    /// Zoom in the 256-point convention, for the style.
    public let zoom: Double
    /// Pixels per point, for widths and text sizes given in points.
    public let scale: Double

    public init(origin: MercatorPoint, pixelsPerMetre: Double, width: Int, height: Int, zoom: Double, scale: Double) {
        self.origin = origin
        self.pixelsPerMetre = pixelsPerMetre
        self.width = width
        self.height = height
        self.zoom = zoom
        self.scale = scale
    }

    /// The whole viewport at its scale.
    public init(viewport: Viewport) {
        let topLeft = viewport.mercator(at: ScreenPoint(x: 0, y: 0))
        self.init(origin: topLeft, pixelsPerMetre: viewport.scale / viewport.metresPerPoint,
                  width: viewport.pixelWidth, height: viewport.pixelHeight, zoom: viewport.zoom, scale: viewport.scale)
    }

    /// An XYZ tile of `tileSize` points (256 or 512) at `scale` pixels per point.
    public init(tile: TileID, tileSize: Int, scale: Double) {
        let pixels = Double(tileSize) * scale
        self.init(origin: tile.topLeft, pixelsPerMetre: pixels / tile.span,
                  width: Int(pixels.rounded()), height: Int(pixels.rounded()),
                  zoom: Double(tile.z) + log2(Double(tileSize) / Viewport.tileSize), scale: scale)
    }

    /// The mercator rectangle the pixels cover.
    public var mercatorBounds: MercatorRect {
        MercatorRect(minX: origin.x, minY: origin.y - Double(height) / pixelsPerMetre,
                     maxX: origin.x + Double(width) / pixelsPerMetre, maxY: origin.y)
    }

    /// The rows `rows` of the view as a view of their own.
    public func band(rows: Range<Int>) -> MapView {
        MapView(origin: MercatorPoint(x: origin.x, y: origin.y - Double(rows.lowerBound) / pixelsPerMetre), pixelsPerMetre: pixelsPerMetre,
                width: width, height: rows.count, zoom: zoom, scale: scale)
    }

    /// The pixel position of a mercator point.
    @inline(__always)
    public func pixel(x: Double, y: Double) -> (x: Double, y: Double) {
        ((x - origin.x) * pixelsPerMetre, (origin.y - y) * pixelsPerMetre)
    }
}
