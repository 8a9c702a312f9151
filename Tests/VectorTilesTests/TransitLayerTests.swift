import Foundation
import GeoCore
import Testing
@testable import VectorTiles

/// The `transit` layer read by mapbox-vector-tile: exactly the source file's stations in and around the tile, by
/// name, each where PROJ puts its coordinate (to the tile unit it is rounded to), from the tiles of the mark's zoom.
@Suite struct TransitLayerTests {
    /// The GTFS stations (location_type 1) read with a plain split: the file has no quoted fields.
    static func sourceStations() throws -> [(name: String, lat: Double, lon: Double)] {
        let file = VectorFixture.root.deletingLastPathComponent().appendingPathComponent("shared/data/nyc/subway-stops.txt")
        let rows = try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = rows[0]
        let (name, lat, lon, type) = try (#require(header.firstIndex(of: "stop_name")), #require(header.firstIndex(of: "stop_lat")),
                                          #require(header.firstIndex(of: "stop_lon")), #require(header.firstIndex(of: "location_type")))
        return rows.dropFirst().filter { $0[type] == "1" }.map { ($0[name], Double($0[lat])!, Double($0[lon])!) }
    }

    @Test func transitHoldsTheSourceStationsWherePROJPutsThem() throws {
        let directory = try VectorFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tiles = try [12, 13, 15].map(VectorFixture.williamsburg(zoom:))
        let paths = try VectorFixture.write(tiles, into: directory)
        let decoded = try JSONDecoder().decode([String: [String: DecodedLayer]].self,
                                               from: Data(VectorFixture.run(VectorFixture.python, [VectorFixture.decoder, "decode"] + paths).utf8))
        #expect(decoded[paths[0]]?["transit"] == nil, "z12 tiles are drawn at z13–14 of the raster map, before the marks")
        let proj = try ProjTransformer(source: "EPSG:4326", target: "EPSG:3857")
        let stations = try Self.sourceStations()
        for (tile, path) in zip(tiles.dropFirst(), paths.dropFirst()) {
            let bounds = tile.mercatorBounds
            let units = Double(VectorTileMaker.extent) / bounds.width
            let limit = Double(VectorTileMaker.buffer)
            var expected: [(name: String, x: Double, y: Double)] = []
            for station in stations {
                let point = try proj.transform(x: station.lon, y: station.lat)
                let (x, y) = ((point.x - bounds.minX) * units, (bounds.maxY - point.y) * units)
                if (-limit...(4096 + limit)).contains(x) && (-limit...(4096 + limit)).contains(y) { expected.append((station.name, x, y)) }
            }
            let features = try #require(decoded[path]?["transit"]).features
            #expect(features.count == expected.count && expected.count >= 2, "\(tile): \(features.count) stations, \(expected.count) in the file")
            for feature in features {
                let at = try #require(feature.coordinates.points.first)
                let name = feature.properties["name"]
                let match = expected.firstIndex { name == .text($0.name) && abs(at.x - $0.x) <= 0.5 + 1e-6 && abs(at.y - $0.y) <= 0.5 + 1e-6 }
                #expect(match != nil, "\(String(describing: name)) at \(at) is a source station where PROJ puts it")
                if let match { expected.remove(at: match) }
                #expect(feature.properties["minzoom"] == .number(14) && feature.type == "Point")
            }
            #expect(expected.isEmpty, "\(tile): not in the tile: \(expected.map(\.name))")
            if tile.z == 15 { #expect(features.contains { $0.properties["name"] == .text("Bedford Av") }, "\(tile)") }
        }
    }
}
