import Foundation
import GeoCore

/// Where a pyramid's tiles go: an MBTiles file or an XYZ directory. Both can tell which tiles they already
/// hold, so an interrupted export resumes where it stopped.
public protocol TileSink: AnyObject {
    /// The tiles already stored.
    func existingTiles() throws -> Set<TileID>
    /// Stores a batch of encoded tiles durably (one transaction for MBTiles).
    func write(_ tiles: [(tile: TileID, png: [UInt8])]) throws
}

/// XYZ tiles as `DIR/z/x/y.png`, each written to a temporary name and renamed, so a file is whole or absent.
public final class DirectoryTileSink: TileSink {
    public let directory: URL

    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public func url(for tile: TileID) -> URL {
        directory.appendingPathComponent("\(tile.z)/\(tile.x)/\(tile.y).png")
    }

    public func existingTiles() throws -> Set<TileID> {
        var found = Set<TileID>()
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let path = enumerator?.nextObject() as? String {
            let parts = path.split(separator: "/")
            guard parts.count == 3, parts[2].hasSuffix(".png"), let z = Int(parts[0]), let x = Int(parts[1]),
                  let y = Int(parts[2].dropLast(4)), let tile = try? TileID(z: z, x: x, y: y) else { continue }
            found.insert(tile)
        }
        return found
    }

    public func write(_ tiles: [(tile: TileID, png: [UInt8])]) throws {
        for (tile, png) in tiles {
            let url = url(for: tile)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(png).write(to: url, options: .atomic)
        }
    }
}
