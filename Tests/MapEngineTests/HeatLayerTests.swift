import Foundation
import GeoCore
import HeatMap
import Raster
import Testing
@testable import MapEngine

@Suite("The glow in the engine")
struct HeatLayerTests {
    /// A copy of the committed data directory with `friends.json` edited, for an engine of its own.
    private func engine(editingFriends edit: (String) -> String) throws -> MapEngine {
        let directory = EngineFixture.temporaryURL("data")
        let source = SceneLoaderTests.dataDirectory
        for sub in ["williamsburg", "styles", "doordash"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for file in [SceneLoader.sceneFile, ActivityLoader.activityFile, "styles/snapmap.json", "styles/tracking.json", RouteCatalog.file] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: directory.appendingPathComponent(file))
        }
        let friends = try String(contentsOf: source.appendingPathComponent(SceneLoader.friendsFile), encoding: .utf8)
        try edit(friends).write(to: directory.appendingPathComponent(SceneLoader.friendsFile), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("basemap"), withDestinationURL: source.appendingPathComponent("basemap"))
        return try MapEngine(paths: DataPaths(dataDirectory: directory, baseMapSourceDirectory: DataPaths(dataDirectory: source).baseMapSourceDirectory))
    }

    @Test func aGhostedFriendChangesNothing() throws {
        let committed = try EngineFixture.engine.get()
        let withoutGhost = try engine { text in
            text.split(separator: "\n").filter { !$0.contains("\"rae\"") && !$0.contains("Rae Donovan") && !$0.contains("\"ghostMode\": true") }
                .joined(separator: "\n").replacingOccurrences(of: "\"#5C6BC0\" },\n  ]", with: "\"#5C6BC0\" }\n  ]")
        }
        #expect(withoutGhost.scene.friends.map(\.id) == committed.scene.friends.map(\.id))
        let viewport = committed.scene.viewport
        let heatOnly: Set<MapLayer> = [.heat]
        #expect(try PNGCodec.encode(committed.renderFrame(viewport, layers: heatOnly).canvas) == PNGCodec.encode(withoutGhost.renderFrame(viewport, layers: heatOnly).canvas))
        let unghosted = try engine { $0.replacingOccurrences(of: ", \"ghostMode\": true", with: "") }
        #expect(unghosted.scene.friends.count == 9)
        #expect(try PNGCodec.encode(committed.renderFrame(viewport, layers: heatOnly).canvas) != PNGCodec.encode(unghosted.renderFrame(viewport, layers: heatOnly).canvas),
                "the same friend out of Ghost Mode does add weight")
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
