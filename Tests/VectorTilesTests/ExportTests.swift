import Foundation
import GeoCore
import SQLiteKit
import ServerTestSupport
import Testing
@testable import VectorTiles

/// `snapmap tiles --format mvt` as a user runs it: vector MBTiles (gzipped tiles, the `json` row) and directories.
@Suite struct ExportTests {
    static let box = ["--bbox", "-73.962,40.712,-73.950,40.720", "--zoom", "12-15"]

    static func snapmap(_ arguments: [String]) -> (status: Int32, output: String) {
        do {
            let result = try Snapmap.run(arguments)
            return (result.status, result.output + result.errorOutput)
        } catch {
            return (-1, "\(error)")
        }
    }

    @Test func vectorMBTilesHoldGzippedTilesAndTheirLayersInTheJsonRow() throws {
        let directory = try VectorFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("w.mbtiles").path
        let result = Self.snapmap(["tiles"] + Self.box + ["--format", "mvt", "--out", file])
        #expect(result.status == 0, "\(result.output)")
        let database = try SQLiteDatabase(path: file)
        var metadata: [String: String] = [:]
        for row in try database.query("SELECT name, value FROM metadata") { metadata[row[0].text ?? ""] = row[1].text }
        #expect(metadata["format"] == "pbf" && metadata["minzoom"] == "12" && metadata["maxzoom"] == "15")
        let json = try #require(try JSONSerialization.jsonObject(with: Data((metadata["json"] ?? "").utf8)) as? [String: Any])
        let layers = try #require(json["vector_layers"] as? [[String: Any]])
        #expect(layers.compactMap { $0["id"] as? String } == ["water", "land", "parks", "streets", "places", "transit"])
        #expect(layers.allSatisfy { $0["fields"] is [String: String] && $0["minzoom"] is Int && $0["maxzoom"] is Int })

        let rows = try database.query("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
        #expect(rows.count == (try TileCover(bounds: GeoBoundingBox(west: -73.962, south: 40.712, east: -73.950, north: 40.720), zooms: 12...15).count))
        #expect(rows.allSatisfy { ($0[3].blob ?? []).starts(with: [0x1F, 0x8B]) }, "every tile starts with gzip's magic number")
        let row = try #require(rows.first { $0[0].integer == 15 })
        let tile = try TileID(z: 15, x: row[1].integer ?? 0, tmsY: row[2].integer ?? 0)
        let stored = directory.appendingPathComponent("stored.mvt"), made = directory.appendingPathComponent("made.mvt")
        try Data(row[3].blob ?? []).write(to: stored)
        try Data(try VectorFixture.vectorTiles.get().tile(tile)).write(to: made)
        let decoded = try VectorFixture.run(VectorFixture.python, [VectorFixture.decoder, "decode", stored.path, made.path])
        let both = try JSONDecoder().decode([String: [String: DecodedLayer]].self, from: Data(decoded.utf8))
        #expect(both[stored.path]?.mapValues(\.features.count) == both[made.path]?.mapValues(\.features.count))
        #expect(both[stored.path]?["land"] != nil)

        let png = Self.snapmap(["tiles"] + Self.box + ["--out", file])
        #expect(png.status != 0 && png.output.contains("format=mvt"), "PNG tiles are not mixed into a vector export: \(png.output)")
    }

    @Test func aDirectoryHoldsPlainTilesByZoomColumnAndRow() throws {
        let directory = try VectorFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = Self.snapmap(["tiles"] + Self.box + ["--format", "mvt", "--out", directory.path])
        #expect(result.status == 0, "\(result.output)")
        let tile = try TileID(containing: Coordinate(lat: 40.716, lon: -73.956), zoom: 15)
        let bytes = try Data(contentsOf: directory.appendingPathComponent("\(tile.z)/\(tile.x)/\(tile.y).mvt"))
        #expect([UInt8](bytes) == (try VectorFixture.vectorTiles.get().tile(tile)))
    }

    @Test(arguments: [
        (["--format", "svg"], "--format must be png or mvt"),
        (["--format", "mvt", "--scale", "2"], "--scale applies to PNG tiles only"),
        (["--format", "mvt", "--tile-size", "512"], "--tile-size applies to PNG tiles only"),
    ])
    func badOptionsAreNamed(extra: [String], message: String) throws {
        let directory = try VectorFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = Self.snapmap(["tiles"] + Self.box + extra + ["--out", directory.appendingPathComponent("x.mbtiles").path])
        #expect(result.status != 0 && result.output.contains(message), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.mbtiles").path), "nothing was written")
    }
}
