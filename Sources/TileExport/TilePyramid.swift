import Foundation
import GeoCore
import VectorTiles
import Parallel

/// The tiles of a pyramid (a box over a zoom range), optionally one shard of N disjoint parts: tile k of the
/// full list (zoom, then row, then column) belongs to shard k mod N.
public struct TilePyramid: Sendable {
    /// The most tiles one export may hold.
    public static let maxTiles = 1_000_000

    public let cover: TileCover
    public let shardIndex: Int
    public let shardCount: Int

    public init(cover: TileCover, shardIndex: Int = 0, shardCount: Int = 1) throws(BadField) {
        try BadField.check(Double(shardCount), "shard count", in: 1...10_000)
        try BadField.check(Double(shardIndex), "shard index", in: 0...Double(shardCount - 1))
        let count = cover.count
        guard count <= Self.maxTiles else {
            throw BadField(field: "bbox/zoom", message: "the pyramid holds \(count) tiles; at most \(Self.maxTiles) per export (use --shard or fewer zooms)")
        }
        self.cover = cover
        self.shardIndex = shardIndex
        self.shardCount = shardCount
    }

    /// This shard's tiles in order.
    public var tiles: [TileID] {
        cover.tiles.enumerated().filter { $0.offset % shardCount == shardIndex }.map(\.element)
    }
}

/// Makes a pyramid's tiles on every core with a function from tile to bytes and hands them to a sink in batches;
/// tiles the sink already holds are skipped, so a rerun after an interruption finishes the job.
public struct PyramidExporter: Sendable {
    /// Tiles made between two writes (one transaction each), by default.
    public static let defaultBatchSize = 64

    public let tileSize: Int
    public let scale: Double
    public let format: TileFormat
    public let batchSize: Int
    /// One tile's bytes: a PNG of `tileSize` points at `scale`, or an uncompressed vector tile.
    public let tile: @Sendable (TileID) throws -> [UInt8]

    /// An exporter of the tiles `tile` makes; `tileSize`, `scale` and `format` say what they are, for the output's record.
    public init(tileSize: Int = 256, scale: Double = 1, format: TileFormat = .png, batchSize: Int = defaultBatchSize,
                tile: @escaping @Sendable (TileID) throws -> [UInt8]) {
        self.tileSize = tileSize
        self.scale = scale
        self.format = format
        self.batchSize = max(1, batchSize)
        self.tile = tile
    }

    /// What the tiles are made with, recorded in the output so a resumed export cannot mix them.
    var settings: String { format == .png ? "tileSize=\(tileSize) scale=\(Int(scale))" : "format=mvt extent=\(VectorTileMaker.extent)" }

    /// One tile's bytes as the sink stores them (vector tiles gzipped when it stores them so).
    private func encode(_ tile: TileID, gzip: Bool) throws -> [UInt8] {
        let bytes = try self.tile(tile)
        guard format == .mvt, gzip else { return bytes }
        guard let compressed = Gzip.compress(bytes) else { throw CocoaError(.fileWriteUnknown) }
        return compressed
    }

    /// Exports the pyramid; `progress(done, total)` is called after each batch, and `shouldStop` is asked
    /// before each batch so a caller can end the run cleanly. Returns how many tiles were rendered.
    @discardableResult
    public func export(_ pyramid: TilePyramid, to sink: any TileSink, restart: Bool = false, progress: (Int, Int) -> Void = { _, _ in },
                       shouldStop: () -> Bool = { false }) throws -> Int {
        if restart { try sink.clear() }
        if let recorded = try sink.recordedSettings(), recorded != settings {
            throw TileSettingsMismatch(recorded: recorded, requested: settings)
        }
        try sink.record(settings: settings)
        let all = pyramid.tiles
        let existing = try sink.existingTiles()
        let todo = all.filter { !existing.contains($0) }
        var done = all.count - todo.count
        progress(done, all.count)
        var rendered = 0
        for start in stride(from: 0, to: todo.count, by: batchSize) {
            if shouldStop() { break }
            let batch = Array(todo[start..<min(start + batchSize, todo.count)])
            let gzip = sink.storesGzippedVectorTiles
            let results = ParallelFor.map(batch) { tile in try encode(tile, gzip: gzip) }
            var encoded: [(tile: TileID, bytes: [UInt8])] = []
            for (tile, result) in zip(batch, results) { encoded.append((tile, try result.get())) }
            try sink.write(encoded)
            rendered += batch.count
            done += batch.count
            progress(done, all.count)
        }
        return rendered
    }
}
