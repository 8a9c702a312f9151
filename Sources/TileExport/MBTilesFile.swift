import Foundation
import GeoCore
import SQLiteKit
import VectorTiles

/// An MBTiles 1.3 file: the `metadata` and `tiles` tables, TMS rows, written in transactions so the file is
/// valid after every batch and an interrupted export resumes.
public final class MBTilesFile: TileSink {
    public static let attribution = "© OpenStreetMap contributors, NYC Open Data"

    /// What an MBTiles file says about its tileset.
    public struct Metadata: Sendable {
        public let name: String
        public let bounds: GeoBoundingBox
        public let zooms: ClosedRange<Int>
        public let format: TileFormat
        /// The layers of vector tiles, for the `json` row (MBTiles 1.3); empty for PNG.
        public let vectorLayers: [VectorLayerSchema]

        public init(name: String, bounds: GeoBoundingBox, zooms: ClosedRange<Int>, format: TileFormat = .png, vectorLayers: [VectorLayerSchema] = []) {
            self.name = name
            self.bounds = bounds
            self.zooms = zooms
            self.format = format
            self.vectorLayers = vectorLayers
        }

        /// The name/value rows of the `metadata` table.
        var rows: [(String, String)] {
            let centerZoom = (zooms.lowerBound + zooms.upperBound) / 2
            var rows = [
                ("name", name), ("format", format.mbtilesFormat), ("type", "baselayer"), ("version", "1"),
                ("description", "snapmap base map"),
                ("bounds", "\(bounds.west),\(bounds.south),\(bounds.east),\(bounds.north)"),
                ("center", "\((bounds.west + bounds.east) / 2),\((bounds.south + bounds.north) / 2),\(centerZoom)"),
                ("minzoom", String(zooms.lowerBound)), ("maxzoom", String(zooms.upperBound)),
                ("attribution", MBTilesFile.attribution),
            ]
            if format == .mvt { rows.append(("json", Self.json(vectorLayers))) }
            return rows
        }

        /// `{"vector_layers": […]}` with sorted keys, so the same layers give the same text.
        static func json(_ layers: [VectorLayerSchema]) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(["vector_layers": layers])) ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self)
        }
    }

    public let database: SQLiteDatabase

    /// Opens or creates the file, creating the schema when missing and writing the metadata when given.
    public init(path: String, metadata: Metadata?) throws {
        database = try SQLiteDatabase(path: path)
        try database.execute("""
            CREATE TABLE IF NOT EXISTS metadata (name TEXT, value TEXT);
            CREATE UNIQUE INDEX IF NOT EXISTS metadata_name ON metadata (name);
            CREATE TABLE IF NOT EXISTS tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            CREATE UNIQUE INDEX IF NOT EXISTS tile_index ON tiles (zoom_level, tile_column, tile_row);
            """)
        if let metadata {
            try transaction {
                try database.run("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)",
                                 rows: metadata.rows.map { [.text($0.0), .text($0.1)] })
            }
        }
    }

    public func existingTiles() throws -> Set<TileID> {
        var found = Set<TileID>()
        for row in try database.query("SELECT zoom_level, tile_column, tile_row FROM tiles") {
            guard let z = row[0].integer, let x = row[1].integer, let tmsY = row[2].integer,
                  let tile = try? TileID(z: z, x: x, tmsY: tmsY) else { continue }
            found.insert(tile)
        }
        return found
    }

    public var storesGzippedVectorTiles: Bool { true }

    public func write(_ tiles: [(tile: TileID, bytes: [UInt8])]) throws {
        try transaction {
            try database.run("INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)",
                             rows: tiles.map { [.integer($0.tile.z), .integer($0.tile.x), .integer($0.tile.tmsY), .blob($0.bytes)] })
        }
    }

    static let settingsRow = "snapmap_settings"

    public func recordedSettings() throws -> String? {
        try metadata()[Self.settingsRow]
    }

    public func record(settings: String) throws {
        try transaction {
            try database.run("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)", rows: [[.text(Self.settingsRow), .text(settings)]])
        }
    }

    public func clear() throws {
        try transaction {
            try database.execute("DELETE FROM tiles")
            try database.change("DELETE FROM metadata WHERE name = ?", [.text(Self.settingsRow)])
        }
    }

    /// The metadata table as a dictionary.
    public func metadata() throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try database.query("SELECT name, value FROM metadata") {
            if let name = row[0].text, let value = row[1].text { result[name] = value }
        }
        return result
    }

    /// Copies every tile (and, when this file has none, the metadata) of other MBTiles files into this one.
    public func merge(_ others: [String]) throws {
        for (index, other) in others.enumerated() {
            try database.execute("ATTACH DATABASE '\(other.replacingOccurrences(of: "'", with: "''"))' AS part")
            defer { try? database.execute("DETACH DATABASE part") }
            try transaction {
                try database.execute("INSERT OR REPLACE INTO tiles SELECT zoom_level, tile_column, tile_row, tile_data FROM part.tiles")
                if index == 0 { try database.execute("INSERT OR IGNORE INTO metadata SELECT name, value FROM part.metadata") }
            }
        }
    }

    private func transaction(_ body: () throws -> Void) throws {
        try database.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}
