import BaseMap
import Foundation
import GeoCore
import Testing
@testable import VectorTiles

/// Vector tiles name a water from the zoom its name fits on the water at its first spot, so MapLibre does not write
/// "East River" across Manhattan at z11 either.
@Suite struct WaterNameZoomTests {
    @Test func theEastRiverIsNamedFromTheZoomItsNameFitsOnTheWater() throws {
        let engine = try VectorFixture.engine.get()
        let table = engine.baseMap.store.places
        let river = try #require((0..<table.count).first { table.names[$0] == "East River" && table.classes[$0] == PlaceKind.water.rawValue })
        let fits = try #require(engine.baseMap.waterNameZooms()[river])
        let look = try #require(engine.baseMap.style.places).layer(.water)
        #expect(fits > look.minZoom, "at z\(look.minZoom) the name is longer than the river is straight")
        let directory = try VectorFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Tile z is drawn at raster zooms z+1 … z+2: the river is named in the first tile zoom that reaches `fits`.
        let first = Int((fits - 1).rounded(.down))
        let tiles = try [first - 1, first].map { try TileID(containing: Coordinate(lat: 40.7180, lon: -73.9700), zoom: $0) }
        let paths = try VectorFixture.write(tiles, into: directory)
        let decoded = try JSONDecoder().decode([String: [String: DecodedLayer]].self,
                                               from: Data(VectorFixture.run(VectorFixture.python, [VectorFixture.decoder, "decode"] + paths).utf8))
        func eastRiver(in path: String) -> DecodedLayer.Feature? {
            decoded[path]?["places"]?.features.first { $0.properties["name"] == .text("East River") }
        }
        #expect(eastRiver(in: paths[0]) == nil, "\(tiles[0]) is drawn before the name fits")
        let named = try #require(eastRiver(in: paths[1]), "\(tiles[1])")
        #expect(named.properties["minzoom"] == .number(((fits - MapLibreStyle.zoomOffset) * 100).rounded() / 100))
    }
}
