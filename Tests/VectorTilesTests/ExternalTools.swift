import Foundation
import GeoCore
import MapEngine
import MapScene
import ServerTestSupport
import VectorTiles

/// The engine, the tools the set-up installs (GDAL's ogrinfo, the virtual environment's python with
/// mapbox-vector-tile and Shapely) and a place to write tiles, for the vector tile tests.
enum VectorFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let engine = Result { try MapEngine(paths: DataPaths(dataDirectory: root.appendingPathComponent("Data"))) }
    static let vectorTiles = Result { VectorTileMaker(try engine.get().baseMap) }
    static let python = root.appendingPathComponent(".build/python/bin/python").path
    static let decoder = root.appendingPathComponent("Tests/tools/mvt_decode.py").path
    /// The tile holding the centre of the Williamsburg frame at a zoom.
    static func williamsburg(zoom: Int) throws -> TileID { try TileID(containing: engine.get().scene.viewport.center, zoom: zoom) }

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-mvt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes tiles as `DIR/z/x/y.mvt` and returns their paths.
    static func write(_ tiles: [TileID], into directory: URL) throws -> [String] {
        let vectorTiles = try vectorTiles.get()
        return try tiles.map { tile in
            let url = directory.appendingPathComponent("\(tile.z)/\(tile.x)/\(tile.y).mvt")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(vectorTiles.tile(tile)).write(to: url)
            return url.path
        }
    }

    /// Runs a program; its standard output, or an error with everything it printed.
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw ToolMissing(path: executable) }
        let result = try TestProcess.run(URL(fileURLWithPath: executable), arguments)
        guard result.succeeded else { throw ToolFailed(message: result.errorOutput) }
        return result.output
    }

    struct ToolMissing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: run `make setup` (scripts/setup.sh and scripts/python-setup.sh install it)" }
    }

    struct ToolFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// What mvt_decode.py prints for a tile: layers by name.
struct DecodedLayer: Decodable {
    struct Feature: Decodable {
        let id: Int
        let type: String
        let properties: [String: PropertyValue]
        let coordinates: Coordinates
    }

    let extent: Int
    let version: Int
    let features: [Feature]
}

/// A decoded attribute value.
enum PropertyValue: Decodable, Equatable {
    case text(String)
    case number(Double)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
    }
}

/// GeoJSON coordinates of any depth, flattened to their points.
struct Coordinates: Decodable {
    let points: [(x: Double, y: Double)]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let pair = try? container.decode([Double].self), pair.count == 2 {
            points = [(pair[0], pair[1])]
        } else {
            points = try container.decode([Coordinates].self).flatMap(\.points)
        }
    }
}
