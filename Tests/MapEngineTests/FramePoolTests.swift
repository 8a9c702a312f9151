import Foundation
import GeoCore
import Raster
import Testing
@testable import MapEngine
@testable import MapScene

/// Frames drawn on kept canvases: a viewer's frame never carries a pixel of the frame the canvas held before
/// (another viewer's friends), whichever viewport and pins came before it.
@Suite("Frames on kept canvases")
struct FramePoolTests {
    /// Friends scattered around Williamsburg, as many as `count`.
    static func crowd(_ count: Int, seed: UInt64, scene: Scene) throws -> [Friend] {
        var random = SplitMix64(seed: seed)
        return try (0..<count).map { index in
            Friend(id: "s\(seed)-\(index)", name: "Seed\(seed) \(index)", place: "Brooklyn",
                   coordinate: try Coordinate(lat: 40.705 + random.unit() * 0.025, lon: -73.970 + random.unit() * 0.03),
                   lastSeen: scene.capturedAt.addingTimeInterval(-random.unit() * 3600), snapstreak: 0, bestFriend: false,
                   color: ["#FFB400", "#7C4DFF", "#00BFA5", "#FF5A5F"][index % 4], avatar: nil)
        }
    }

    @Test func eachViewersFrameIsTheirsAloneOnAKeptCanvas() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let sharing = SharedLayers(budget: 256 * 1024 * 1024)
        let centers = [scene.viewport.center, try Coordinate(lat: 40.7175, lon: -73.9560)]
        // Crowded and sparse viewers in turn, three at a time on each of two viewports: a kept canvas comes back to the
        // layer it was a copy of (only what the last frame drew is copied back) or to the other one (every pixel).
        let viewers = try [(40, 1), (3, 2), (60, 3), (0, 4), (25, 5), (8, 6), (50, 7), (1, 8), (30, 9)].map { try Self.crowd($0.0, seed: UInt64($0.1), scene: scene) }
        for (index, friends) in viewers.enumerated() {
            let viewport = try Viewport(center: centers[index / 3 % 2], zoom: 14.2, size: ScreenSize(width: 393, height: 852), scale: 2,
                                        insets: scene.viewport.insets)
            let layers: Set<MapLayer> = [.base, .heat, .pins]
            let kept = try engine.encodeFrame(viewport, layers: layers, friends: friends, now: scene.capturedAt, sharing: sharing,
                                              streamAbove: .max)
            let scratch = try PNGCodec.encode(engine.renderFrame(viewport, layers: layers, friends: friends, now: scene.capturedAt).canvas)
            // As a Bool: a failing comparison of two arrays of a million bytes would be diffed element by element.
            let same = kept.png == scratch
            #expect(same, "viewer \(index) with \(friends.count) friends")
        }
        #expect(FramePool.capacity < viewers.count)
    }
}
