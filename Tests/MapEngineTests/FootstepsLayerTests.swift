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

    /// A frame reads only the places inside `footstepsBounds`: for random viewports (zoom 13 to 18, sizes and scales
    /// of all sorts) and places scattered over and around the bounds (a third of their size beyond each side), what the
    /// tint is drawn from (every piece of street it tints, hashed) is the same from the places inside as from them all.
    @Test func aFrameIsTintedFromThePlacesInsideItsFootstepsBoundsAlone() throws {
        let engine = try EngineFixture.engine.get()
        let now = engine.scene.capturedAt
        var random = SplitMix64(seed: 29)
        var (tinted, left) = (0, 0)
        for _ in 0..<30 {
            let viewport = try Viewport(center: Coordinate(lat: .random(in: 40.70...40.73, using: &random), lon: .random(in: -73.97 ... -73.93, using: &random)),
                                        zoom: .random(in: 13...18, using: &random),
                                        size: ScreenSize(width: .random(in: 40...400, using: &random).rounded(), height: .random(in: 40...800, using: &random).rounded()),
                                        scale: [1, 2, 3][Int.random(in: 0...2, using: &random)])
            let layers: Set<MapLayer> = [.base, .footsteps]
            let box = try #require(engine.footstepsBounds(viewport, layers: layers))
            let (height, width) = (box.north - box.south, box.east - box.west)
            let places = (0..<400).map { _ in
                (lat: Double.random(in: (box.south - height / 3)...(box.north + height / 3), using: &random),
                 lon: Double.random(in: (box.west - width / 3)...(box.east + width / 3), using: &random))
            }
            let inside = places.filter { (box.south...box.north).contains($0.lat) && (box.west...box.east).contains($0.lon) }
            let project = { (places: [(lat: Double, lon: Double)]) in places.map { WebMercator.projectUnchecked(lat: $0.lat, lon: $0.lon) } }
            let all = try engine.frameInputs(viewport, layers: layers, layout: nil, friends: [], now: now, places: project(places))
            #expect(try engine.frameInputs(viewport, layers: layers, layout: nil, friends: [], now: now, places: project(inside)) == all, "\(viewport)")
            tinted += try all == engine.frameInputs(viewport, layers: layers, layout: nil, friends: [], now: now) ? 0 : 1
            left += places.count - inside.count
        }
        #expect(tinted > 20 && left > 0, "\(tinted) of the frames tinted, \(left) places left out")
        #expect(engine.footstepsBounds(engine.scene.viewport, layers: [.base]) == nil && engine.footstepsBounds(engine.scene.viewport, layers: [.footsteps]) == nil)
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
