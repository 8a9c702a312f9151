import Foundation
import GeoCore
import Raster
import Testing
@testable import MapEngine
@testable import MapScene

/// What the caches a frame request can touch hold is what they count: a shared layer's real bytes (canvases, PNG
/// bands, parses) stay within the cost it is kept at, kept canvases within their budget, and a layer too large to
/// be kept is never made whole.
@Suite("Frame caches hold what they count")
struct SharedLayerCostTests {
    /// The scene's viewport at several sizes, scales and zooms, each drawn for a viewer with pins (so the layer's
    /// names and both its PNG encodings are made).
    @Test(arguments: [(393.0, 852.0, 3.0, 15.0), (1024, 768, 2, 13.2), (600, 600, 1, 17.5)])
    func aSharedLayerHoldsNoMoreThanItsCost(size: (Double, Double, Double, Double)) throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let sharing = SharedLayers(budget: 1 << 30)
        let viewport = try Viewport(center: scene.viewport.center, zoom: size.3, size: ScreenSize(width: size.0, height: size.1), scale: size.2)
        let friends = try FramePoolTests.crowd(30, seed: 11, scene: scene)
        // Without the glow, whose key other tests' Snaps may change meanwhile in the shared engine.
        let frame = try engine.renderFrame(viewport, layers: [.base, .pins], friends: friends, now: scene.capturedAt, sharing: sharing)
        _ = try frame.png()
        let pixels = viewport.pixelWidth * viewport.pixelHeight
        let kept = try #require(sharing.value(engine.sharedLayerKey(MapView(viewport: viewport), layers: [.base], now: scene.capturedAt,
                                                                        reserved: engine.reservedBoxes(viewport))))
        #expect(kept.byteCount <= pixels * SharedLayer.bytesPerPixel, "\(kept.byteCount) bytes for \(pixels) px")
        #expect(kept.byteCount > pixels * 10, "the canvas and its bands were made (else this checks nothing): \(kept.byteCount)")
        #expect(sharing.bytes == pixels * SharedLayer.bytesPerPixel)
    }

    @Test func keptCanvasesStayWithinTheirBudget() throws {
        let pool = FramePool()
        var largest = 0
        for side in [2000, 1500, 2500, 3000, 800, 2900, 4000, 1200] {
            let canvas = try Canvas(width: side, height: side)
            pool.recycle(canvas)
            largest = max(largest, pool.bytes)
        }
        #expect(largest <= FramePool.budget)
        #expect(largest > FramePool.budget / 2, "the budget was reached: \(largest)")
    }

    /// A frame too large for its layer to be kept is drawn in bands: the cache stays empty, no canvas is kept, and
    /// the bytes are those of the whole-canvas path.
    @Test func aLayerTooLargeToKeepIsNotShared() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let sharing = SharedLayers(budget: 64 << 20)
        let viewport = try Viewport(center: scene.viewport.center, zoom: 14.5, size: ScreenSize(width: 1400, height: 1000), scale: 1)
        #expect(!sharing.keeps(cost: viewport.pixelWidth * viewport.pixelHeight * SharedLayer.bytesPerPixel))
        let friends = try FramePoolTests.crowd(12, seed: 5, scene: scene)
        let frame = try engine.encodeFrame(viewport, layers: [.base, .heat, .pins], friends: friends, now: scene.capturedAt, sharing: sharing)
        #expect(sharing.count == 0)
        let whole = try PNGCodec.encode(engine.renderFrame(viewport, layers: [.base, .heat, .pins], friends: friends, now: scene.capturedAt).canvas)
        let same = frame.png == whole
        #expect(same)
    }
}
