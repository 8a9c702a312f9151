import Foundation
import GeoCore
import HeatMap
import Raster
import Testing
@testable import MapEngine

@Suite("The glow in the engine")
struct HeatLayerTests {
    @Test func noFriendFeedsTheGlow() throws {
        let engine = try EngineFixture.engine.get()
        let friends = try LiveFixture.samsFriends()
        #expect(!friends.isEmpty)
        let viewport = engine.scene.viewport
        let heatOnly: Set<MapLayer> = [.heat]
        let alone = try PNGCodec.encode(engine.renderFrame(viewport, layers: heatOnly, now: engine.scene.capturedAt).canvas)
        let withFriends = try PNGCodec.encode(engine.renderFrame(viewport, layers: heatOnly, friends: friends, now: engine.scene.capturedAt).canvas)
        #expect(alone == withFriends, "the glow is public: private locations add nothing to it")
    }

    @Test func heatOverlayTilesAreTransparentAwayFromActivity() throws {
        let engine = try EngineFixture.engine.get()
        let busy = try TileID(containing: Coordinate(lat: 40.7207, lon: -73.9515), zoom: 15)
        let quiet = try TileID(containing: Coordinate(lat: 40.6500, lon: -73.9000), zoom: 15)
        let glow = try engine.renderHeatTile(busy)
        #expect((0..<256).contains { glow.pixel(x: $0, y: 128).a > 0 })
        let empty = try engine.renderHeatTile(quiet)
        #expect((0..<256).allSatisfy { x in (0..<256).allSatisfy { empty.pixel(x: x, y: $0).a == 0 } })
    }

    @Test func activityFixtureIsTheGeneratorsOutput() throws {
        let data = SceneLoaderTests.dataDirectory
        let spec = try JSONDecoder().decode(ActivityGenerator.Hotspots.self, from: Data(contentsOf: data.appendingPathComponent(ActivityLoader.hotspotsFile)))
        let committed = try JSONDecoder().decode(ActivityGenerator.Activity.self, from: Data(contentsOf: data.appendingPathComponent(ActivityLoader.activityFile)))
        #expect(try ActivityGenerator.generate(spec).points == committed.points, "the committed activity is what the generator makes")
        #expect((200...600).contains(committed.points.count))
    }
}
