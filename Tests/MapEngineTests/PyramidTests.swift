import Foundation
import GeoCore
import Raster
import SQLiteKit
import Testing
import TileExport
@testable import MapEngine

@Suite("Tile pyramids, MBTiles and shards")
struct PyramidTests {
    private let box = try! GeoBoundingBox(west: -73.962, south: 40.712, east: -73.950, north: 40.720)

    private func pyramid(_ zooms: ClosedRange<Int>, shard: (Int, Int) = (0, 1)) throws -> TilePyramid {
        try TilePyramid(cover: TileCover(bounds: box, zooms: zooms), shardIndex: shard.0, shardCount: shard.1)
    }

    @Test func mbtilesSchemaMetadataAndRowFlipReadBackThroughSQLite() throws {
        let engine = try EngineFixture.engine.get()
        let url = EngineFixture.temporaryURL("w.mbtiles")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try MBTilesFile(path: url.path, metadata: .init(name: "williamsburg", bounds: box, zooms: 12...14))
        let plan = try pyramid(12...14)
        #expect(try PyramidExporter { try engine.tilePNG($0) }.export(plan, to: file) == plan.tiles.count)

        let database = try SQLiteDatabase(path: url.path)
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0[0].text }
        #expect(tables == ["metadata", "tiles"])
        let columns = try database.query("PRAGMA table_info(tiles)").compactMap { $0[1].text }
        #expect(columns == ["zoom_level", "tile_column", "tile_row", "tile_data"])
        let metadata = try file.metadata()
        #expect(metadata["format"] == "png" && metadata["minzoom"] == "12" && metadata["maxzoom"] == "14" && metadata["name"] == "williamsburg")
        #expect(metadata["bounds"] == "-73.962,40.712,-73.95,40.72")
        #expect(metadata["attribution"] == "© OpenStreetMap contributors, NYC Open Data" && metadata["center"] != nil)

        let tile = try #require(plan.tiles.last)
        let rows = try database.query("SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                                      [.integer(tile.z), .integer(tile.x), .integer((1 << tile.z) - 1 - tile.y)])
        let stored = try #require(rows.first?[0].blob)
        #expect(stored == (try PNGCodec.encode(engine.renderTile(tile))), "the TMS row holds the XYZ tile's bytes")
    }

    @Test func interruptedExportIsValidAndARerunFinishesIt() throws {
        let engine = try EngineFixture.engine.get()
        let url = EngineFixture.temporaryURL("interrupted.mbtiles")
        defer { try? FileManager.default.removeItem(at: url) }
        let plan = try pyramid(12...15)
        let batchSize = 4
        #expect(plan.tiles.count > 2 * batchSize, "the plan spans several batches")
        var batches = 0
        let exporter = PyramidExporter(batchSize: batchSize) { try engine.tilePNG($0) }
        let first = try exporter.export(plan, to: MBTilesFile(path: url.path, metadata: .init(name: "w", bounds: box, zooms: 12...15)),
                                        shouldStop: { defer { batches += 1 }; return batches >= 2 })
        #expect(first == 2 * batchSize)
        let database = try SQLiteDatabase(path: url.path)
        #expect(try database.query("PRAGMA integrity_check").first?[0].text == "ok")
        #expect(try MBTilesFile(path: url.path, metadata: nil).existingTiles().count == 2 * batchSize)
        #expect(try MBTilesFile(path: url.path, metadata: nil).metadata()["maxzoom"] == "15", "the metadata was written before any tile")
        let second = try exporter.export(plan, to: MBTilesFile(path: url.path, metadata: nil))
        #expect(second == plan.tiles.count - 2 * batchSize, "the rerun renders only what is missing")
        #expect(try MBTilesFile(path: url.path, metadata: nil).existingTiles() == Set(plan.tiles))
    }

    @Test func shardsAreDisjointAndMergeIntoTheWhole() throws {
        let engine = try EngineFixture.engine.get()
        let whole = try pyramid(12...14)
        var parts: [String] = []
        defer { for part in parts { try? FileManager.default.removeItem(atPath: part) } }
        var seen = Set<TileID>()
        for index in 0..<3 {
            let shard = try pyramid(12...14, shard: (index, 3))
            #expect(seen.isDisjoint(with: shard.tiles))
            seen.formUnion(shard.tiles)
            let url = EngineFixture.temporaryURL("part\(index).mbtiles")
            parts.append(url.path)
            try PyramidExporter { try engine.tilePNG($0) }.export(shard, to: MBTilesFile(path: url.path, metadata: .init(name: "w", bounds: box, zooms: 12...14)))
        }
        #expect(seen == Set(whole.tiles))
        let merged = EngineFixture.temporaryURL("merged.mbtiles")
        parts.append(merged.path)
        let file = try MBTilesFile(path: merged.path, metadata: nil)
        try file.merge(Array(parts.dropLast()))
        #expect(try file.existingTiles() == Set(whole.tiles))
        #expect(try file.metadata()["maxzoom"] == "14")
    }

    @Test func directoryOutputAndIdenticalBytesOnARerun() throws {
        let engine = try EngineFixture.engine.get()
        let directory = EngineFixture.temporaryURL("xyz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try pyramid(13...13)
        let sink = try DirectoryTileSink(directory: directory)
        try PyramidExporter { try engine.tilePNG($0) }.export(plan, to: sink)
        #expect(try sink.existingTiles() == Set(plan.tiles))
        let tile = try #require(plan.tiles.first)
        let bytes = try Data(contentsOf: sink.url(for: tile))
        #expect(bytes == Data(try PNGCodec.encode(engine.renderTile(tile))))
    }

    @Test func oversizedPyramidsAndBadShardsAreRefused() throws {
        let world = try GeoBoundingBox(west: -180, south: -85, east: 180, north: 85)
        #expect(throws: BadField.self) { try TilePyramid(cover: TileCover(bounds: world, zooms: 0...12)) }
        #expect(throws: BadField.self) { try TilePyramid(cover: TileCover(bounds: box, zooms: 12...13), shardIndex: 3, shardCount: 3) }
    }

    @Test func resumingWithOtherSettingsIsAnErrorAndARestartReplacesTheTiles() throws {
        let engine = try EngineFixture.engine.get()
        let directory = EngineFixture.temporaryURL("xyz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try pyramid(13...13)
        let sink = try DirectoryTileSink(directory: directory)
        #expect(try PyramidExporter { try engine.tilePNG($0) }.export(plan, to: sink) == plan.tiles.count)
        #expect(throws: TileSettingsMismatch.self) { try PyramidExporter(scale: 2) { try engine.tilePNG($0, scale: 2) }.export(plan, to: sink) }
        #expect(try PyramidExporter(scale: 2) { try engine.tilePNG($0, scale: 2) }.export(plan, to: sink, restart: true) == plan.tiles.count)
        let tile = try PNGCodec.decode([UInt8](Data(contentsOf: sink.url(for: plan.tiles[0]))))
        #expect(tile.width == 512, "the restart rendered @2x tiles")
        let leftover = URL(fileURLWithPath: sink.url(for: plan.tiles[0]).path + ".partial")
        try Data([1, 2, 3]).write(to: leftover)
        #expect(try sink.existingTiles().count == plan.tiles.count)
        #expect(!FileManager.default.fileExists(atPath: leftover.path), "a killed export's partial file is cleaned up")
        let mbtiles = try MBTilesFile(path: directory.appendingPathComponent("t.mbtiles").path, metadata: nil)
        try PyramidExporter { try engine.tilePNG($0) }.export(plan, to: mbtiles)
        #expect(throws: TileSettingsMismatch.self) { try PyramidExporter(tileSize: 512) { try engine.tilePNG($0, tileSize: 512) }.export(plan, to: mbtiles) }
    }
}
