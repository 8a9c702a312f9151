/// The tiles that cover a bounding box over a range of zooms.
public struct TileCover: Sendable {
    public let bounds: GeoBoundingBox
    public let zooms: ClosedRange<Int>

    /// Validates the zooms (0…22) and that the box lies within Web Mercator's latitudes.
    public init(bounds: GeoBoundingBox, zooms: ClosedRange<Int>) throws(BadField) {
        let allowed = Double(TileID.zoomRange.lowerBound)...Double(TileID.zoomRange.upperBound)
        try BadField.check(Double(zooms.lowerBound), "zoom (min)", in: allowed)
        try BadField.check(Double(zooms.upperBound), "zoom (max)", in: allowed)
        _ = try bounds.mercatorRect()
        self.bounds = bounds
        self.zooms = zooms
    }

    /// The column and row ranges at one zoom. As in mercantile, the south-east corner is nudged inwards so that
    /// a box ending exactly on a tile edge does not reach into the next tile.
    public func ranges(at zoom: Int) -> (xs: ClosedRange<Int>, ys: ClosedRange<Int>) {
        let northWest = Coordinate(uncheckedLat: bounds.north, lon: bounds.west)
        let southEast = Coordinate(uncheckedLat: min(bounds.south + Self.edgeEpsilon, bounds.north),
                                   lon: max(bounds.east - Self.edgeEpsilon, bounds.west))
        // The initializer validated the box and the zooms, so these cannot throw.
        let topLeft = try! TileID(containing: northWest, zoom: zoom)
        let bottomRight = try! TileID(containing: southEast, zoom: zoom)
        return (topLeft.x...bottomRight.x, topLeft.y...bottomRight.y)
    }

    /// Degrees by which the south-east corner is moved inwards (mercantile's LL_EPSILON).
    static let edgeEpsilon = 1e-11

    /// How many tiles the cover holds, without listing them.
    public var count: Int {
        zooms.reduce(0) { total, zoom in
            let (xs, ys) = ranges(at: zoom)
            return total + xs.count * ys.count
        }
    }

    /// Every tile, zoom by zoom, then row by row, then column by column.
    public var tiles: [TileID] {
        var result: [TileID] = []
        result.reserveCapacity(count)
        for zoom in zooms {
            let (xs, ys) = ranges(at: zoom)
            for y in ys {
                for x in xs { result.append(TileID(uncheckedZ: zoom, x: x, y: y)) }
            }
        }
        return result
    }
}
