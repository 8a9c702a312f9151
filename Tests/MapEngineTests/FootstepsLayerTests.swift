import Foundation
import GeoCore
import MapEngine
import Raster
import Testing

/// The footsteps layer: the streets near a person's places are tinted, nothing else changes, and without places
/// (or without the layer) the frame is the frame without it, byte for byte.
struct FootstepsLayerTests {
    @Test func onlyStreetsNearThePlacesChangeAndTheyTakeTheTint() throws {
        let engine = try EngineFixture.engine.get()
        let now = engine.scene.capturedAt
        let viewport = try Viewport(center: Coordinate(lat: 40.7148, lon: -73.9600), zoom: 16.5, size: ScreenSize(width: 240, height: 240), scale: 2)
        let walk = [(40.7140, -73.9610), (40.7146, -73.9600), (40.7152, -73.9590)].map { WebMercator.projectUnchecked(lat: $0.0, lon: $0.1) }
        let plain = try engine.renderFrame(viewport, layers: [.base], now: now).canvas
        let tinted = try engine.renderFrame(viewport, layers: [.base, .footsteps], now: now, places: walk).canvas
        let tint = try #require(engine.baseMap.style.footsteps)
        let view = MapView(viewport: viewport)
        // A changed pixel lies within the radius of a place (in mercator metres there), widened by half the widest
        // street at this zoom and a pixel and a half.
        let widest = engine.baseMap.style.streets.map { $0.width.value(at: viewport.zoom) }.max() ?? 0
        let reach = (widest * viewport.scale / 2 + 1.5) / view.pixelsPerMetre
        var (changed, tintColoured) = (0, 0)
        for y in 0..<plain.height {
            for x in 0..<plain.width where plain.pixel(x: x, y: y) != tinted.pixel(x: x, y: y) {
                changed += 1
                let point = MercatorPoint(x: view.origin.x + (Double(x) + 0.5) / view.pixelsPerMetre, y: view.origin.y - (Double(y) + 0.5) / view.pixelsPerMetre)
                let near = walk.contains { hypot($0.x - point.x, $0.y - point.y) <= MapEngine.visitedRadiusMeters * cosh($0.y / WebMercator.earthRadius) + reach }
                #expect(near, "pixel \(x),\(y) changed far from every place")
                if tinted.pixel(x: x, y: y) == tint { tintColoured += 1 }
            }
        }
        #expect(changed > 500 && tintColoured > changed / 3, "\(changed) pixels changed, \(tintColoured) of them the tint")
    }

    @Test func withoutPlacesOrWithoutTheLayerTheFrameIsUnchanged() throws {
        let engine = try EngineFixture.engine.get()
        let now = engine.scene.capturedAt
        let viewport = try Viewport(center: Coordinate(lat: 40.7148, lon: -73.9600), zoom: 16, size: ScreenSize(width: 200, height: 200), scale: 1)
        let place = [WebMercator.projectUnchecked(lat: 40.7148, lon: -73.9600)]
        let plain = try engine.encodeFrame(viewport, layers: [.base, .heat], friends: [], now: now).png
        #expect(try engine.encodeFrame(viewport, layers: [.base, .heat, .footsteps], friends: [], now: now).png == plain)
        #expect(try engine.encodeFrame(viewport, layers: [.base, .heat], friends: [], now: now, places: place).png == plain)
        #expect(try engine.encodeFrame(viewport, layers: [.base, .heat, .footsteps], friends: [], now: now, places: place).png != plain)
    }
}
