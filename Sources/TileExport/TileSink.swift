import Foundation
import GeoCore

/// Where a pyramid's tiles go: an MBTiles file or an XYZ directory. Both can tell which tiles they already
/// hold, so an interrupted export resumes where it stopped.
public protocol TileSink: AnyObject {
    /// The tiles already stored.
    func existingTiles() throws -> Set<TileID>
    /// Stores a batch of encoded tiles durably (one transaction for MBTiles).
    func write(_ tiles: [(tile: TileID, bytes: [UInt8])]) throws
    /// Whether vector tiles are stored gzipped (MBTiles `pbf`) rather than as they are.
    var storesGzippedVectorTiles: Bool { get }
    /// The settings the stored tiles were made with (`tileSize=256 scale=1`), or nil for a new output.
    func recordedSettings() throws -> String?
    /// Records the settings of the tiles that follow.
    func record(settings: String) throws
    /// Removes every stored tile and the recorded settings, for a clean restart.
    func clear() throws
}

/// An export into an output whose tiles were made with other settings: resuming would mix them.
public struct TileSettingsMismatch: Error, CustomStringConvertible {
    public let recorded: String
    public let requested: String
    public var description: String {
        "the output holds tiles made with \(recorded); this export asks for \(requested): use another output, or --restart to replace them"
    }
}

/// XYZ tiles as `DIR/z/x/y.png` (or `.mvt`, uncompressed), each written to `y.png.partial` and renamed, so a file is whole or absent; partial
/// files a killed export left behind are removed when the next one looks at what exists.
public final class DirectoryTileSink: TileSink {
    public static let settingsFile = "snapmap-tiles.txt"
    static let partialSuffix = ".partial"
    public let directory: URL
    public let format: TileFormat
    public var storesGzippedVectorTiles: Bool { false }

    public init(directory: URL, format: TileFormat = .png) throws {
        self.directory = directory
        self.format = format
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public func url(for tile: TileID) -> URL {
        directory.appendingPathComponent("\(tile.z)/\(tile.x)/\(tile.y).\(format.rawValue)")
    }

    public func existingTiles() throws -> Set<TileID> {
        var found = Set<TileID>()
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(Self.partialSuffix) {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(path))
                continue
            }
            let parts = path.split(separator: "/")
            guard parts.count == 3, parts[2].hasSuffix("." + format.rawValue), let z = Int(parts[0]), let x = Int(parts[1]),
                  let y = Int(parts[2].dropLast(format.rawValue.count + 1)), let tile = try? TileID(z: z, x: x, y: y) else { continue }
            found.insert(tile)
        }
        return found
    }

    public func write(_ tiles: [(tile: TileID, bytes: [UInt8])]) throws {
        for (tile, bytes) in tiles {
            let url = url(for: tile)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let partial = URL(fileURLWithPath: url.path + Self.partialSuffix)
            try Data(bytes).write(to: partial)
            guard rename(partial.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        }
    }

    public func recordedSettings() throws -> String? {
        try? String(contentsOf: directory.appendingPathComponent(Self.settingsFile), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func record(settings: String) throws {
        try Data((settings + "\n").utf8).write(to: directory.appendingPathComponent(Self.settingsFile), options: .atomic)
    }

    public func clear() throws {
        for item in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) {
            let name = item.lastPathComponent
            if name == Self.settingsFile || Int(name) != nil { try FileManager.default.removeItem(at: item) }
        }
    }
}
