import Foundation
import GeoCore
import HeatMap
import LiveMap
import Raster
import Testing
@testable import MapEngine
@testable import MapScene

@Suite("The glow in the engine")
struct HeatLayerTests {
    /// Eight people send fixes from one quiet place to a live store feeding an engine's glow: no byte of the glow there
    /// changes; the same eight posting Snaps there do change it, so the place can glow.
    @Test func noFriendFeedsTheGlow() throws {
        let engine = try MapEngine(paths: EngineFixture.engine.get().paths)
        let now = engine.scene.capturedAt
        let live = LiveMapService(store: try SQLiteLiveStore(path: EngineFixture.temporaryURL("fixes-\(UUID().uuidString).db").path))
        try LiveGlow.connect(engine.glow.aggregate, live: live, clock: { now })
        let quiet = try Coordinate(lat: 40.7065, lon: -73.9450)
        let tile = try TileID(containing: quiet, zoom: 15)
        let before = try PNGCodec.encode(engine.renderHeatTile(tile, now: now))
        let people = try (0..<8).map { try live.addPerson(id: "near-\($0)", name: "Near \($0)").id }
        for person in people {
            let fix = try LocationFix(lat: quiet.lat, lon: quiet.lon, accuracyMeters: 5, takenAt: now.addingTimeInterval(-60))
            #expect(try live.updateLocation(person, fix: fix, now: now))
        }
        #expect(engine.glow.aggregate.cellCount == 0, "no fix reached the glow's cells")
        #expect(try PNGCodec.encode(engine.renderHeatTile(tile, now: now)) == before, "the glow is public: private locations add nothing to it")
        let point = WebMercator.projectUnchecked(lat: quiet.lat, lon: quiet.lon)
        for person in people { engine.glow.aggregate.add(PostedSnap(poster: person.rawValue, point: point, takenAt: now.addingTimeInterval(-60))) }
        #expect(try PNGCodec.encode(engine.renderHeatTile(tile, now: now)) != before, "their Snaps there do glow")
    }

    @Test func heatOverlayTilesAreTransparentAwayFromActivity() throws {
        let engine = try EngineFixture.engine.get()
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
