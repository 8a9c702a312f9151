import DeliveryTracking
import Foundation
import GeoCore
import MapRequest
import Raster
import Testing
@testable import MapEngine

@Suite("Delivery-tracking route frames")
struct RouteTests {
    private func routes() throws -> (DeliveryTracker, [DeliveryRoute]) {
        let tracker = DeliveryTracker(engine: try EngineFixture.engine.get())
        let catalog = try tracker.routes
        return (tracker, [try catalog.route(named: "lucias"), try catalog.route(named: "sakura"),
                         try catalog.route(named: "arc:40.6790,-73.9770"), try catalog.route(named: "lucias").last(250)])
    }

    @Test func everyPointLiesInsideTheMarginsTouchingThemOnTheTighterAxis() throws {
        let (tracker, all) = try routes()
        for route in all {
            for options in [try RouteFrameOptions(), try RouteFrameOptions(sheet: 0.3, margin: 50), try RouteFrameOptions(size: ScreenSize(width: 600, height: 400), scale: 2)] {
                let frame = try tracker.frame(route, options: options)
                let room = frame.freeRect.inset(by: EdgeInsets(all: options.margin))
                #expect(abs(frame.freeRect.height - (options.size.height * (1 - options.sheet) - RouteFrameOptions.statusBar)) <= 0.5)
                #expect(frame.freeRect.minY == RouteFrameOptions.statusBar, "nothing goes under the status bar")
                let tolerance = 1e-6
                for point in frame.points {
                    #expect(point.x >= room.minX - tolerance && point.x <= room.maxX + tolerance && point.y >= room.minY - tolerance && point.y <= room.maxY + tolerance,
                            "\(route.name): \(point) outside \(room)")
                }
                let (xs, ys) = (frame.points.map(\.x), frame.points.map(\.y))
                let touchesX = abs(xs.min()! - room.minX) < 1e-6 && abs(xs.max()! - room.maxX) < 1e-6
                let touchesY = abs(ys.min()! - room.minY) < 1e-6 && abs(ys.max()! - room.maxY) < 1e-6
                #expect(touchesX || touchesY || frame.camera.zoom == RouteFrameOptions.maxZoom, "\(route.name) touches the margins on its tighter axis")
                #expect(frame.home == frame.points.last)
                #expect(frame.storePoint == (try frame.viewport().point(for: route.storeCoordinate)), "storePoint is the store")
            }
        }
    }

    @Test func equalTimeStepsCoverEqualGeodesicDistances() throws {
        let (tracker, all) = try routes()
        for route in all {
            let frame = try tracker.frame(route, options: try RouteFrameOptions())
            let steps = 40
            var previousDriven = 0.0
            for step in 1...steps {
                let state = try tracker.courier(on: route, progress: Double(step) / Double(steps), frame: frame)
                let remaining = state.remaining.count >= 2 ? try Polyline(state.remaining).length : 0
                let driven = route.length - remaining
                #expect(abs(driven - previousDriven - route.length / Double(steps)) <= 0.5, "\(route.name) step \(step)")
                #expect(abs(remaining + state.drivenMeters - route.length) <= 0.5, "remaining plus driven is the route")
                previousDriven = driven
            }
            let end = try tracker.courier(on: route, progress: 1, frame: frame)
            #expect(end.arrived && end.coordinate == route.coordinates.last && abs(end.screenPoint.x - frame.home.x) < 1e-9)
            #expect(!(try tracker.courier(on: route, progress: 0.99, frame: frame)).arrived)
        }
    }

    @Test func theLast250MetresStart250MetresFromHome() throws {
        let (_, all) = try routes()
        for route in all.prefix(3) where route.length > 250 {
            let last = try route.last(250)
            #expect(abs(try Polyline(last.coordinates).length - 250) <= 1, "\(route.name)")
            #expect(last.coordinates.last == route.coordinates.last)
            let start = try route.polyline.coordinate(atDistance: route.length - 250)
            #expect(Geodesic.wgs84.distance(start, last.coordinates[0]) < 0.01)
            #expect(last.storeCoordinate == route.coordinates[0], "the last stretch still knows where the store is")
        }
        let options = try RequestParameters(["route": "lucias", "last-meters": "250"]).route(in: DeliveryTracker(engine: try EngineFixture.engine.get()).routes).1
        #expect(options.margin == RouteFrameOptions.lastStretchMargin, "the last stretch gets the app's 50 pt by default")
        #expect(try RequestParameters(["route": "lucias"]).route(in: DeliveryTracker(engine: try EngineFixture.engine.get()).routes).1.margin == RouteFrameOptions.routeMargin)
    }

    @Test func snapshotsRepeatByteForByte() throws {
        let tracker = DeliveryTracker(engine: try EngineFixture.engine.get())
        let frame = try tracker.frame(try tracker.routes.route(named: "lucias").last(250), options: RouteFrameOptions(scale: 1, margin: 50))
        #expect(try PNGCodec.encode(tracker.renderTrackingMap(frame)) == PNGCodec.encode(tracker.renderTrackingMap(frame)))
    }

    @Test func badRouteRequestsAreClearErrors() throws {
        let tracker = DeliveryTracker(engine: try EngineFixture.engine.get())
        let lucias = try tracker.routes.route(named: "lucias")
        #expect { try tracker.routes.route(named: "pizza-palace") } throws: { "\($0)".contains("lucias, sakura") }
        #expect(throws: BadField.self) { try tracker.courier(on: lucias, progress: 1.5, frame: tracker.frame(lucias, options: RouteFrameOptions())) }
        #expect(throws: BadField.outOfRange("sheet", given: "0.95", allowed: RouteFrameOptions.sheetRange)) { try RouteFrameOptions(sheet: 0.95) }
        #expect(throws: BadField.self) { try lucias.last(100_000) }
    }
}
