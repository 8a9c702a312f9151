import BaseMap
import Foundation
import GeoCore
import Testing
@testable import VectorTiles

/// Our tiles read by two decoders we did not write: GDAL's MVT driver and the mapbox-vector-tile package.
@Suite struct DecodingTests {
    @Test func gdalAndMapboxVectorTileReadTheSameLayersAndFeatures() throws {
        let directory = try VectorFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tiles = try [10, 12, 14, 16].map(VectorFixture.williamsburg(zoom:))
        let paths = try VectorFixture.write(tiles, into: directory)
        let decoded = try JSONDecoder().decode([String: [String: DecodedLayer]].self,
                                               from: Data(VectorFixture.run(VectorFixture.python, [VectorFixture.decoder, "decode"] + paths).utf8))
        let schema = try VectorFixture.vectorTiles.get().layers
        for (tile, path) in zip(tiles, paths) {
            let layers = try #require(decoded[path])
            #expect(Set(layers.keys).isSubset(of: schema.map(\.id)))
            #expect(layers["land"] != nil)
            if tile.z <= 14 { #expect(layers["water"] != nil, "\(tile) reaches the East River") }
            for (name, layer) in layers {
                #expect(layer.extent == 4096 && layer.version == 2)
                let fields = try #require(schema.first { $0.id == name }).fields
                #expect(layer.features.allSatisfy { Set($0.properties.keys).isSubset(of: fields.keys) }, "\(name) has only its documented fields")
            }
            // ogrinfo's summary of every layer: its name and how many features it read.
            let summary = try VectorFixture.run("/usr/bin/ogrinfo", ["-ro", "-al", "-so", path])
            var counts: [String: Int] = [:]
            var layer = ""
            for line in summary.split(separator: "\n") {
                if line.hasPrefix("Layer name: ") { layer = String(line.dropFirst(12)) }
                if line.hasPrefix("Feature Count: ") { counts[layer] = Int(line.dropFirst(15)) }
            }
            #expect(counts == layers.mapValues(\.features.count), "\(tile): GDAL and mapbox-vector-tile agree")
        }
        let z12 = try #require(decoded[paths[1]])
        for name in ["Williamsburg", "Greenpoint", "East River", "McCarren Park"] {
            #expect(z12["places"]?.features.contains { $0.properties["name"] == .text(name) } == true, "\(name) at z12")
        }
        #expect(decoded[paths[2]]?["streets"]?.features.contains { $0.properties["class"] == .text("primary") } == true)
    }

    /// Every decoded vertex lies within one tile unit of the source as we project it (streets of the same class,
    /// the same park, the shoreline or the corners of the square), and every source street point inside the tile
    /// within the simplification tolerance and rounding of the decoded streets.
    @Test(arguments: [14, 16])
    func decodedGeometryLiesWithinATileUnitOfTheSource(zoom: Int) throws {
        let engine = try VectorFixture.engine.get()
        let directory = try VectorFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tile = try VectorFixture.williamsburg(zoom: zoom)
        let path = try VectorFixture.write([tile], into: directory)[0]
        let layers = try JSONDecoder().decode([String: [String: DecodedLayer]].self,
                                              from: Data(VectorFixture.run(VectorFixture.python, [VectorFixture.decoder, "decode", path]).utf8))[path] ?? [:]
        let source = SourceSegments(store: engine.baseMap.store, tile: tile)
        let corners: Set<[Double]> = [[-80, -80], [4176, -80], [4176, 4176], [-80, 4176]]
        var checked = 0
        for name in ["water", "land", "parks", "streets"] {
            for feature in layers[name]?.features ?? [] {
                let segments: SegmentGrid = switch name {
                case "streets": source.streets(class: feature.properties["class"])
                case "parks": source.park(feature.id - 1)
                default: source.land
                }
                for point in feature.coordinates.points where !corners.contains([point.x, point.y]) {
                    #expect(segments.distance(to: point) <= 1, "\(name) vertex \(point) of \(tile)")
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
        let decodedStreets = SegmentGrid(lines: (layers["streets"]?.features ?? []).map(\.coordinates.points))
        let shown = Set((layers["streets"]?.features ?? []).compactMap { feature -> String? in
            if case .text(let text) = feature.properties["class"] { return text }
            return nil
        })
        for street in shown {
            for point in source.streets(class: .text(street)).points where (2...4094).contains(point.x) && (2...4094).contains(point.y) {
                #expect(decodedStreets.distance(to: point) <= 1 + 0.5.squareRoot(), "\(street) source point \(point)")
            }
        }
    }
}
