import Foundation

/// An XYZ tile (z 0…22, x east from the antimeridian, y south from the north edge), as mercantile does it.
public struct TileID: Hashable, Sendable, Codable, CustomStringConvertible {
    public static let zoomRange = 0...22

    public let z: Int
    public let x: Int
    public let y: Int

    /// Validates z within 0…22 and x, y within 0…2^z − 1.
    public init(z: Int, x: Int, y: Int) throws(BadField) {
        try BadField.check(Double(z), "z", in: Double(Self.zoomRange.lowerBound)...Double(Self.zoomRange.upperBound))
        let last = Double((1 << z) - 1)
        try BadField.check(Double(x), "x", in: 0...last)
        try BadField.check(Double(y), "y", in: 0...last)
        self.z = z
        self.x = x
        self.y = y
    }

    init(uncheckedZ z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Parses `Z/X/Y`.
    public init(parsing text: String, field: String = "tile") throws(BadField) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2] else {
            throw BadField(field: field, message: "expected Z/X/Y integers, got \"\(text)\"")
        }
        try self.init(z: z, x: x, y: y)
    }

    /// The tile holding a coordinate at a zoom; points on the east or south world edge fall in the last tile.
    /// Like mercantile, a point on a tile's upper-left corner belongs to that tile despite rounding.
    public init(containing coordinate: Coordinate, zoom: Int) throws(BadField) {
        try BadField.check(Double(zoom), "zoom", in: 0...Double(Self.zoomRange.upperBound))
        let point = try WebMercator.project(coordinate)
        let tiles = Double(1 << zoom)
        let last = (1 << zoom) - 1
        let unitX = (point.x + WebMercator.halfWorld) / WebMercator.worldSize
        let unitY = (WebMercator.halfWorld - point.y) / WebMercator.worldSize
        let x = Int(((unitX + Self.cornerEpsilon) * tiles).rounded(.down))
        let y = Int(((unitY + Self.cornerEpsilon) * tiles).rounded(.down))
        self.init(uncheckedZ: zoom, x: min(max(x, 0), last), y: min(max(y, 0), last))
    }

    /// The nudge (in world widths) that keeps corner points in their own tile, as mercantile's EPSILON.
    static let cornerEpsilon = 1e-14

    public var description: String { "\(z)/\(x)/\(y)" }

    /// The tile's side in mercator metres.
    public var span: Double { WebMercator.worldSize / Double(1 << z) }

    /// The tile's north-west corner in mercator metres, where its pixels start.
    public var topLeft: MercatorPoint {
        MercatorPoint(x: -WebMercator.halfWorld + Double(x) * span, y: WebMercator.halfWorld - Double(y) * span)
    }

    /// The tile's area in mercator metres.
    public var mercatorBounds: MercatorRect {
        MercatorRect(minX: topLeft.x, minY: WebMercator.halfWorld - Double(y + 1) * span, maxX: -WebMercator.halfWorld + Double(x + 1) * span, maxY: topLeft.y)
    }

    /// The tile's area in degrees.
    public var geoBounds: GeoBoundingBox { mercatorBounds.geoBounds }

    /// The tile one zoom out that contains this one; nil at zoom 0.
    public var parent: TileID? {
        z == 0 ? nil : TileID(uncheckedZ: z - 1, x: x >> 1, y: y >> 1)
    }

    /// The four tiles one zoom in (top-left, top-right, bottom-right, bottom-left); empty at the deepest zoom.
    public var children: [TileID] {
        guard z < Self.zoomRange.upperBound else { return [] }
        let (cx, cy) = (x << 1, y << 1)
        return [(cx, cy), (cx + 1, cy), (cx + 1, cy + 1), (cx, cy + 1)].map { TileID(uncheckedZ: z + 1, x: $0.0, y: $0.1) }
    }

    /// The Bing quadkey: one digit per zoom level, empty at zoom 0.
    public var quadkey: String {
        var digits = ""
        for level in stride(from: z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            let digit = (x & mask != 0 ? 1 : 0) + (y & mask != 0 ? 2 : 0)
            digits.append(Character(String(digit)))
        }
        return digits
    }

    /// The tile of a quadkey (digits 0–3, at most 22 of them).
    public init(quadkey: String) throws(BadField) {
        guard quadkey.count <= Self.zoomRange.upperBound else {
            throw BadField(field: "quadkey", message: "at most \(Self.zoomRange.upperBound) digits, got \(quadkey.count)")
        }
        var x = 0
        var y = 0
        for character in quadkey {
            guard let digit = character.wholeNumberValue, (0...3).contains(digit) else {
                throw BadField(field: "quadkey", message: "digits must be 0, 1, 2 or 3, got \"\(character)\"")
            }
            x = (x << 1) | (digit & 1)
            y = (y << 1) | (digit >> 1)
        }
        self.init(uncheckedZ: quadkey.count, x: x, y: y)
    }

    /// The row in the TMS scheme used by MBTiles (y counted from the south).
    public var tmsY: Int { (1 << z) - 1 - y }

    /// The tile from a TMS row.
    public init(z: Int, x: Int, tmsY: Int) throws(BadField) {
        try BadField.check(Double(z), "z", in: 0...Double(Self.zoomRange.upperBound))
        try self.init(z: z, x: x, y: (1 << z) - 1 - tmsY)
    }
}
