import BaseMap
import Foundation
import GeoCore
import MapEngine
import Raster

/// How a tracking map is framed: the screen, the bottom sheet's share of its height and the margins.
public struct RouteFrameOptions: Sendable {
    public static let sheetRange: ClosedRange<Double> = 0...0.9
    public static let marginRange: ClosedRange<Double> = 0...200
    public static let maxZoom = 18.0
    /// The margins the delivery app asks for: 40 pt around a whole route, 50 pt around the last stretch.
    public static let routeMargin = 40.0
    public static let lastStretchMargin = 50.0
    /// The status bar at the top of the tracking screen, in points: no route point goes under it.
    public static let statusBar = 59.0

    public let size: ScreenSize
    public let scale: Double
    public let sheet: Double
    public let margin: Double
    public let statusBar: Double

    public init(size: ScreenSize = ScreenSize(width: 393, height: 852), scale: Double = 3, sheet: Double = 0.52, margin: Double = routeMargin,
                statusBar: Double = statusBar) throws(BadField) {
        try BadField.check(sheet, "sheet", in: Self.sheetRange)
        try BadField.check(margin, "margin", in: Self.marginRange)
        // The route is framed in what the status bar, the sheet and the margins leave of the screen.
        let free = (width: size.width - 2 * margin, height: size.height * (1 - sheet) - statusBar - 2 * margin)
        guard free.width > 0, free.height > 0 else {
            throw BadField(field: "size", message: "\(size.width)x\(size.height) pt leaves no room for the route: the width must exceed twice the margin "
                           + "(\(2 * margin) pt) and the height above the sheet (\(1 - sheet) of it) the status bar and twice the margin (\(statusBar + 2 * margin) pt)")
        }
        self.size = size
        self.scale = scale
        self.sheet = sheet
        self.margin = margin
        self.statusBar = statusBar
    }
}

/// A framed route: the snapshot's viewport and every point of interest projected through it.
public struct RouteFrame: ScreenSnapshot, Sendable, Codable {
    public let route: String
    public let store: String
    public let lengthMeters: Double
    public let camera: Camera
    public let size: ScreenSize
    public let scale: Double
    public let insets: EdgeInsets
    public let margin: Double
    /// The area above the sheet; the route sits inside it, `margin` points in.
    public let freeRect: ScreenRect
    public let points: [ScreenPoint]
    public let home: ScreenPoint
    public let storePoint: ScreenPoint
}

/// Where the courier is: constant speed along the route's geodesic length.
public struct CourierState: Sendable, Codable {
    public let progress: Double
    public let drivenMeters: Double
    public let remainingMeters: Double
    public let coordinate: Coordinate
    public let screenPoint: ScreenPoint
    /// From the courier to home, for the red line.
    public let remaining: [Coordinate]
    public let remainingScreen: [ScreenPoint]
    public let arrived: Bool
}

/// The delivery-tracking client's map: its routes and its muted base map (loaded on first use, by the commands and
/// requests that need them), route framing, snapshots and the courier's position.
public final class DeliveryTracker: Sendable {
    public let engine: MapEngine
    private let loadedRoutes: LoadedOnUse<RouteCatalog>
    private let loadedTrackingMap: LoadedOnUse<BaseMapRenderer>
    private let loadedOverlay: LoadedOnUse<TrackingOverlayStyle>
    /// The seed's routes (`doordash/routes.json`).
    public var routes: RouteCatalog { get throws { try loadedRoutes.value() } }
    /// The base map in the tracking style.
    public var trackingMap: BaseMapRenderer { get throws { try loadedTrackingMap.value() } }
    /// The marks drawn over a live order's snapshot.
    public var overlay: TrackingOverlayStyle { get throws { try loadedOverlay.value() } }

    /// A tracker drawing `engine`'s base map data in the tracking style; nothing is read until first asked for.
    public init(engine: MapEngine) {
        self.engine = engine
        let (paths, store, labelFont) = (engine.paths, engine.baseMap.store, engine.labelFont)
        loadedRoutes = LoadedOnUse { try RouteCatalog.load(dataDirectory: paths.dataDirectory) }
        loadedTrackingMap = LoadedOnUse { BaseMapRenderer(store: store, style: try MapStyle.load(paths.trackingStyleFile), labelFont: labelFont) }
        loadedOverlay = LoadedOnUse { try TrackingOverlayStyle.load(dataDirectory: paths.dataDirectory) }
    }

    /// Frames a route between the status bar and the sheet: every point inside the free area minus the margins,
    /// at the largest zoom that fits (capped at 18).
    public func frame(_ route: DeliveryRoute, options: RouteFrameOptions) throws -> RouteFrame {
        let viewport = try Self.fit(route.coordinates, options: options)
        return RouteFrame(route: route.name, store: route.store, lengthMeters: route.length, camera: viewport.camera, size: options.size,
                          scale: options.scale, insets: viewport.insets, margin: options.margin, freeRect: viewport.freeRect,
                          points: try route.coordinates.map { coordinate throws(BadField) in try viewport.point(for: coordinate) },
                          home: try viewport.point(for: route.coordinates[route.coordinates.count - 1]),
                          storePoint: try viewport.point(for: route.storeCoordinate))
    }

    /// The viewport that frames `coordinates` (at least one) between the status bar and the sheet, `margin` inside
    /// what they leave, at the largest zoom that fits (capped at 18).
    static func fit(_ coordinates: [Coordinate], options: RouteFrameOptions) throws(BadField) -> Viewport {
        let insets = EdgeInsets(top: options.statusBar, left: 0, bottom: (options.size.height * options.sheet).rounded(), right: 0)
        let base = try Viewport(center: coordinates[0], zoom: 14, size: options.size, scale: options.scale, insets: insets)
        return try base.with(base.camera(fitting: coordinates, padding: EdgeInsets(all: options.margin), maxZoom: RouteFrameOptions.maxZoom))
    }

    /// The snapshot of a framed route in the tracking style (the base map only; the app draws the rest).
    public func renderTrackingMap(_ frame: RouteFrame) throws -> Canvas {
        try snapshot(frame.viewport())
    }

    /// A live order's tracking frame: the snapshot at the layout's camera with the line, the pins and the Dasher
    /// drawn over it as the delivery app draws them.
    public func renderTracking(_ layout: TrackingLayout) throws -> Canvas {
        let canvas = try snapshot(layout.viewport())
        try overlay.draw(layout, on: canvas)
        return canvas
    }

    private func snapshot(_ viewport: Viewport) throws -> Canvas {
        try engine.checkFrame(viewport)
        let view = MapView(viewport: viewport)
        let map = try trackingMap
        // Names keep clear of the sheet (and of a credit, when the style draws one), as a friends' frame's do.
        let reserved = engine.reservedBoxes(viewport, map: map)
        let canvas = try map.render(view, asFrame: true, reserved: reserved)
        map.drawPlaceNames(map.placeNames(for: view), of: view, avoiding: reserved, into: canvas)
        return canvas
    }

    /// The courier after driving `progress` (0…1) of the route, projected through the frame.
    public func courier(on route: DeliveryRoute, progress: Double, frame: RouteFrame) throws -> CourierState {
        try BadField.check(progress, "progress", in: 0...1)
        let viewport = try frame.viewport()
        let driven = route.length * progress
        let remaining = try route.polyline.remainder(fromDistance: driven)
        let position = remaining[0]
        return CourierState(progress: progress, drivenMeters: driven, remainingMeters: route.length - driven, coordinate: position,
                            screenPoint: try viewport.point(for: position), remaining: remaining,
                            remainingScreen: try remaining.map { coordinate throws(BadField) in try viewport.point(for: coordinate) },
                            arrived: progress >= 1)
    }
}
