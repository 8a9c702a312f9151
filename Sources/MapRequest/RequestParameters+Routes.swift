import DeliveryTracking
import Foundation
import GeoCore
import MapEngine
import Orders

extension RequestParameters {
    /// `route` (cut to `last-meters` when given) and the framing: `size`, `scale`, `sheet`, `margin`.
    public func route(in catalog: RouteCatalog) throws -> (DeliveryRoute, RouteFrameOptions) {
        let screen = try trackingScreen()
        let margin = try number("margin", in: RouteFrameOptions.marginRange)
            ?? (values["last-meters"] == nil ? RouteFrameOptions.routeMargin : RouteFrameOptions.lastStretchMargin)
        let options: RouteFrameOptions
        do {
            options = try RouteFrameOptions(size: screen.size, scale: screen.scale, sheet: screen.sheet, margin: margin)
        } catch {
            throw error.prefixed(prefix)
        }
        let name = try required("route")
        var route: DeliveryRoute
        do {
            route = try catalog.route(named: name)
        } catch {
            throw BadField(field: prefix + "route", message: error.message)
        }
        if let metres = try number("last-meters", in: 1...1_000_000) {
            do { route = try route.last(metres) } catch { throw BadField(field: prefix + "last-meters", message: error.message) }
        }
        return (route, options)
    }

    /// A live order's tracking screen: `size` (393x852 pt), `scale` (3) and the `sheet`'s share of the height (0.52).
    public func trackingScreen() throws(BadField) -> (size: ScreenSize, scale: Double, sheet: Double) {
        var size = ScreenSize(width: 393, height: 852)
        if let text = try string("size") {
            do { size = try ScreenSize(parsing: text, field: "size") } catch { throw BadField(field: prefix + "size", message: error.message) }
        }
        return (size, try number("scale", in: Viewport.scaleRange) ?? 3, try number("sheet", in: RouteFrameOptions.sheetRange) ?? 0.52)
    }

    /// `map` laid out on the tracking screen the query asks for; a screen that leaves no room names `size`.
    public func trackingLayout(_ map: CustomerMap) throws -> TrackingLayout {
        let screen = try trackingScreen()
        do {
            return try TrackingLayout(map, size: screen.size, scale: screen.scale, sheet: screen.sheet)
        } catch let error as BadField {
            throw error.prefixed(prefix)
        }
    }

    /// `progress` (0…1), or `at-seconds` with `drive-seconds`.
    public func progress() throws(BadField) -> Double {
        if let given = try number("progress", in: 0...1) { return given }
        guard let at = try number("at-seconds", in: 0...1e7), let drive = try number("drive-seconds", in: 1e-3...1e7) else {
            throw BadField(field: prefix + "progress", message: "give progress (0 … 1), or at-seconds with drive-seconds")
        }
        return min(at / drive, 1)
    }
}
