import Foundation
import GeoCore
import Testing
@testable import BaseMap

@Suite("GeoJSON and Shapefile readers")
struct ReaderTests {
    @Test func readsEveryGeoJSONGeometryAndProperties() throws {
        let text = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "Bedford Avenue", "lanes": 2}, "geometry": {"type": "LineString", "coordinates": [[-73.95, 40.71], [-73.96, 40.72]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "MultiLineString", "coordinates": [[[0, 0], [1, 1]], [[2, 2], [3, 3], [4, 4]]]}},
          {"type": "Feature", "properties": {"ACRES": 35.2}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 1], [1, 2], [2, 2], [1, 1]]]}},
          {"type": "Feature", "properties": null, "geometry": {"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 5]]]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}}
        ]}
        """
        let features = try GeoJSONReader.read(Data(text.utf8), file: "inline.geojson")
        #expect(features.count == 4, "the Point is skipped")
        #expect(features[0].properties["name"] == .string("Bedford Avenue") && features[0].properties["lanes"] == .number(2))
        guard case .lines(let lines) = features[1].geometry, case .polygons(let polygon) = features[2].geometry,
              case .polygons(let multi) = features[3].geometry else {
            Issue.record("wrong geometry kinds")
            return
        }
        #expect(lines.map(\.count) == [2, 3])
        #expect(polygon.count == 1 && polygon[0].count == 2, "one polygon with a hole")
        #expect(multi.count == 2)
    }

    @Test func malformedGeoJSONNamesThePath() {
        func error(_ text: String) -> DataFileError? {
            do {
                _ = try GeoJSONReader.read(Data(text.utf8), file: "bad.geojson")
                return nil
            } catch {
                return error
            }
        }
        #expect(error("{\"type\": \"FeatureCollection\", \"features\": [")?.message.contains("malformed JSON") == true)
        let position = error("""
        {"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], ["x", 1]]}}]}
        """)
        #expect(position?.path == "features[0].geometry.coordinates[1]")
        let range = error("""
        {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [200, 1]]}}
        """)
        #expect(range?.message.contains("lon −180…180") == true)
        #expect(error("{\"type\": \"Topology\"}")?.path == "type")
    }

    @Test func readsTheBoroughShapefileWithItsAttributes() throws {
        let contents = try ShapefileReader.read(base: Fixtures.sourceDirectory.appendingPathComponent("nybb_16a/nybb"))
        let names = Set(contents.features.compactMap { $0.properties["BoroName"]?.stringValue })
        #expect(names == ["Manhattan", "Bronx", "Brooklyn", "Queens", "Staten Island"])
        #expect(contents.projectionWKT.contains("Long_Island"))
        for feature in contents.features {
            guard case .polygons(let polygons) = feature.geometry else {
                Issue.record("nybb holds polygons")
                continue
            }
            #expect(polygons[0].count >= 1 && polygons[0].allSatisfy { $0.count >= 4 })
        }
    }

    @Test func truncatedShapefileIsAnErrorNotACrash() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-shp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for ext in ["shp", "shx", "dbf", "prj"] {
            var data = try Data(contentsOf: Fixtures.sourceDirectory.appendingPathComponent("nybb_16a/nybb.\(ext)"))
            if ext == "shp" { data = data.prefix(data.count / 3) }
            try data.write(to: directory.appendingPathComponent("nybb.\(ext)"))
        }
        let error = #expect(throws: DataFileError.self) { try ShapefileReader.read(base: directory.appendingPathComponent("nybb")) }
        #expect(error?.message.contains("truncated") == true)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("nybb.prj"))
        let missing = #expect(throws: DataFileError.self) { try ShapefileReader.read(base: directory.appendingPathComponent("nybb")) }
        #expect(missing?.file.hasSuffix("nybb.prj") == true)
    }

    @Test(arguments: [UInt16(60_000), UInt16(0)])
    func aDbfWhoseHeaderOrRecordsOverrunTheFileIsAnError(headerLength: UInt16) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-dbf-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for ext in ["shp", "shx", "dbf", "prj"] {
            var data = try Data(contentsOf: Fixtures.sourceDirectory.appendingPathComponent("nybb_16a/nybb.\(ext)"))
            if ext == "dbf" {
                if headerLength > 0 {
                    data[8] = UInt8(headerLength & 0xFF)
                    data[9] = UInt8(headerLength >> 8)
                } else {
                    data[10] = 0
                    data[11] = 0
                }
            }
            try data.write(to: directory.appendingPathComponent("nybb.\(ext)"))
        }
        let error = #expect(throws: DataFileError.self) { try ShapefileReader.read(base: directory.appendingPathComponent("nybb")) }
        #expect(error?.file.hasSuffix("nybb.dbf") == true)
    }
}
