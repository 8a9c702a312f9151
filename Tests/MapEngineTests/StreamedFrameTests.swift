import Foundation
import GeoCore
import Raster
import Testing
@testable import MapEngine

/// Frames are rendered and encoded band by band, on every core or (large ones, here on purpose with
/// `streamAbove: 0`) a few bands at a time, and must give the bytes of the whole-canvas path, pins and card
/// included, opaque and translucent.
@Suite("Frames streamed band by band")
struct StreamedFrameTests {
    @Test func bandedFramesGiveTheBytesOfTheWholeCanvas() throws {
        let engine = try EngineFixture.engine.get()
        let friends = try LiveFixture.samsFriends()
        let scene = engine.scene
        let cases: [(Coordinate, Double, Double, Set<MapLayer>, String?, Bool)] = [
            (scene.viewport.center, 14.5, 3, [.base, .heat, .pins], nil, false),
            (try Coordinate(lat: 40.7190, lon: -73.9560), 15.2, 2, [.base, .heat, .pins], "theo", false),
            (scene.viewport.center, 14.5, 2, [.base, .heat, .pins], "jordan", true),
            (scene.viewport.center, 13.7, 1, [.heat, .pins], nil, false),
            (try Coordinate(lat: 40.7150, lon: -73.9620), 16.5, 1, [.base], nil, false),
        ]
        for (center, zoom, scale, layers, selected, atSelection) in cases {
            let viewport = try Viewport(center: center, zoom: zoom, size: ScreenSize(width: 393, height: 852), scale: scale, insets: scene.viewport.insets)
            let whole = if atSelection, let selected {
                try engine.renderSelectedFrame(viewport, layers: layers, friends: friends, selected: selected, now: scene.capturedAt)
            } else {
                try engine.renderFrame(viewport, layers: layers, friends: friends, selected: selected, now: scene.capturedAt)
            }
            let wholePNG = try whole.png()
            let banded = try engine.encodeFrame(viewport, layers: layers, friends: friends, selected: selected, atSelection: atSelection, now: scene.capturedAt)
            let streamed = try engine.encodeFrame(viewport, layers: layers, friends: friends, selected: selected, atSelection: atSelection,
                                                  now: scene.capturedAt, streamAbove: 0)
            let named = "\(center) z\(zoom) @\(scale)x \(layers.map(\.rawValue).sorted()) \(selected ?? "none") \(atSelection)"
            #expect(banded.png == wholePNG, "\(named)")
            #expect(streamed.png == wholePNG, "\(named)")
            #expect(banded.layout?.pins.map(\.id) == whole.layout?.pins.map(\.id))
            #expect(streamed.layout?.pins.map(\.id) == whole.layout?.pins.map(\.id))
        }
    }
}

/// Frames drawn from OpenStreetMap and NYC Open Data carry their credit, small, in the bottom-right corner of
/// the part of the frame the insets leave free.
@Suite("The map's credit")
struct AttributionTests {
    @Test func framesCarryTheCreditAboveTheBottomInset() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let viewport = scene.viewport
        let frame = try engine.renderFrame(viewport, layers: [.base], now: scene.capturedAt).canvas
        let bare = try engine.renderFrame(viewport, layers: [.heat], now: scene.capturedAt).canvas
        let free = viewport.freeRect
        let scale = viewport.scale
        let corner = (x: Int((free.maxX - 60) * scale)..<Int(free.maxX * scale), y: Int((free.maxY - 16) * scale)..<Int(free.maxY * scale))
        func ink(_ canvas: Canvas) -> Int {
            corner.y.reduce(0) { count, y in count + corner.x.filter { x in let c = canvas.pixel(x: x, y: y); return c.a == 255 && Int(c.r) + Int(c.g) + Int(c.b) < 400 }.count }
        }
        #expect(ink(frame) > 50, "dark credit text in the corner the insets leave free")
        #expect(ink(bare) == 0, "no credit on an overlay without the base map")
    }
}
