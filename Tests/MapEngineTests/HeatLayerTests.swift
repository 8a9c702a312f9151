import Foundation
import GeoCore
import HeatMap
import Raster
import Testing
@testable import MapEngine
@testable import MapScene

@Suite("The glow in the engine")
struct HeatLayerTests {
    @Test func noFriendFeedsTheGlow() throws {
        let engine = try EngineFixture.engine.get()
        let friends = try LiveFixture.samsFriends()
        #expect(!friends.isEmpty && engine.glow.cellCount > 0)
        let viewport = engine.scene.viewport
        let heatOnly: Set<MapLayer> = [.heat]
        let alone = try PNGCodec.encode(engine.renderFrame(viewport, layers: heatOnly, now: engine.scene.capturedAt).canvas)
        let withFriends = try PNGCodec.encode(engine.renderFrame(viewport, layers: heatOnly, friends: friends, now: engine.scene.capturedAt).canvas)
        #expect(alone == withFriends, "the glow is public: private locations add nothing to it")
    }

    @Test func heatOverlayTilesAreTransparentAwayFromActivity() throws {
        let engine = try EngineFixture.engine.get()
        _ = try LiveFixture.service.get()
        let now = engine.scene.capturedAt
        let busy = try TileID(containing: Coordinate(lat: 40.7207, lon: -73.9515), zoom: 15)
        let quiet = try TileID(containing: Coordinate(lat: 40.6500, lon: -73.9000), zoom: 15)
        let glow = try engine.renderHeatTile(busy, now: now)
        #expect((0..<256).contains { glow.pixel(x: $0, y: 128).a > 0 })
        let empty = try engine.renderHeatTile(quiet, now: now)
        #expect((0..<256).allSatisfy { x in (0..<256).allSatisfy { empty.pixel(x: x, y: $0).a == 0 } })
    }

    @Test func demoSnapsAreTheGeneratorsOutput() throws {
        let data = SceneLoaderTests.dataDirectory
        let spec = try JSONDecoder().decode(ActivityGenerator.Hotspots.self, from: Data(contentsOf: data.appendingPathComponent(SnapsFile.hotspotsFile)))
        let committed = try Data(contentsOf: data.appendingPathComponent(SnapsFile.demoFile))
        let store = try EngineFixture.engine.get().baseMap.store
        let isLand = { (place: Coordinate) in store.isLand(WebMercator.projectUnchecked(lat: place.lat, lon: place.lon)) }
        #expect(try SnapsFile.encode(ActivityGenerator.generate(spec, isLand: isLand)) == committed, "the committed Snaps are what the generator makes")
        let snaps = try SnapsFile.read(data.appendingPathComponent(SnapsFile.demoFile))
        #expect((300...2000).contains(snaps.count))
        let wet = snaps.filter { !isLand($0.coordinate) }
        #expect(wet.isEmpty, "no Snap in the water, by the shoreline polygon: \(wet.prefix(3).map(\.coordinate))")
        #expect(spec.hotspots.allSatisfy { isLand(try! Coordinate(lat: $0.lat, lon: $0.lon)) }, "every hotspot's centre is on land")
    }
}
