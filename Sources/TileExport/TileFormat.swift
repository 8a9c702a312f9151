/// What a tile holds: a PNG image of the base map, or the base map as a Mapbox Vector Tile.
public enum TileFormat: String, Sendable, CaseIterable {
    case png
    case mvt

    /// The `format` row of an MBTiles file (MBTiles 1.3 calls gzipped vector tiles `pbf`).
    public var mbtilesFormat: String { self == .png ? "png" : "pbf" }

    public var contentType: String { self == .png ? "image/png" : "application/vnd.mapbox-vector-tile" }
}
