import BaseMap
import GeoCore

/// One tile's view of the stored geometry: mercator metres to tile units (y down), the square grown by the
/// buffer that geometry is clipped to, and the resolution it is simplified to.
struct TileFrame {
    let tile: TileID
    let extent: Int
    let unitsPerMetre: Double
    /// The clip square in mercator metres, for the spatial grids.
    let area: MercatorRect
    private let left: Double
    private let top: Double
    private let clipper: TileClipper
    private let path: TilePath

    init(tile: TileID, extent: Int, buffer: Int, tolerance: Double) {
        self.tile = tile
        self.extent = extent
        let bounds = tile.mercatorBounds
        unitsPerMetre = Double(extent) / tile.span
        left = bounds.minX
        top = bounds.maxY
        area = bounds.expanded(by: Double(buffer) / unitsPerMetre)
        clipper = TileClipper(extent: extent, buffer: buffer)
        path = TilePath(toleranceSquared: tolerance * tolerance)
    }

    /// Tile units per pixel: MapLibre draws a tile over 512 pixels.
    var unitsPerPixel: Double { Double(extent) / Double(Self.pixelsPerTile) }
    static let pixelsPerTile = 512

    /// The zooms of the raster style (whose zoom z has 256-point tiles) at which MapLibre draws this tile: its
    /// zoom z spans 512 pixels a tile, so tile z shows from style zoom z + 1 until z + 2.
    var styleZooms: (from: Double, until: Double) { (Double(tile.z) + 1, Double(tile.z) + 2) }

    func point(x: Double, y: Double) -> (x: Double, y: Double) { ((x - left) * unitsPerMetre, (top - y) * unitsPerMetre) }

    /// A stored ring clipped, simplified and rounded, keeping its orientation; empty when nothing is left.
    func ring(_ table: FeatureTable, part: Int) -> [TilePoint] {
        guard var (xs, ys) = projected(table, part: part) else { return [] }
        if !isInside(xs, ys) { (xs, ys) = clipper.clip(ring: xs, ys) }
        guard xs.count >= 3 else { return [] }
        let ring = path.ring(xs, ys)
        guard !ring.isEmpty, (TilePath.doubleArea(ring) > 0) == (Self.doubleArea(xs, ys) > 0) else { return [] }
        return ring
    }

    /// A stored line clipped, simplified and rounded: the pieces left inside.
    func lines(_ table: FeatureTable, part: Int) -> [[TilePoint]] {
        guard let (xs, ys) = projected(table, part: part), xs.count >= 2 else { return [] }
        let pieces = isInside(xs, ys) ? [(xs, ys)] : clipper.clip(line: xs, ys)
        return pieces.map { path.line($0.xs, $0.ys) }.filter { !$0.isEmpty }
    }

    /// A part's points in tile units, or nil when its bounds miss the clip square.
    fileprivate func projected(_ table: FeatureTable, part: Int) -> ([Double], [Double])? {
        let range = table.points(ofPart: part)
        var xs = [Double](), ys = [Double]()
        xs.reserveCapacity(range.count)
        ys.reserveCapacity(range.count)
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for index in range {
            let x = table.xs[index], y = table.ys[index]
            box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
        }
        guard MercatorRect(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY).intersects(area) else { return nil }
        for index in range {
            let (x, y) = point(x: table.xs[index], y: table.ys[index])
            xs.append(x)
            ys.append(y)
        }
        return (xs, ys)
    }

    private func isInside(_ xs: [Double], _ ys: [Double]) -> Bool {
        let (low, high) = (clipper.minimum, clipper.maximum)
        return xs.allSatisfy { $0 >= low && $0 <= high } && ys.allSatisfy { $0 >= low && $0 <= high }
    }

    fileprivate static func doubleArea(_ xs: [Double], _ ys: [Double]) -> Double {
        var sum = 0.0
        var previous = xs.count - 1
        for index in xs.indices {
            sum += xs[previous] * ys[index] - xs[index] * ys[previous]
            previous = index
        }
        return sum
    }

    /// The clip square as an exterior ring.
    var square: [TilePoint] {
        let (low, high) = (Int32(clipper.minimum), Int32(clipper.maximum))
        return [TilePoint(x: low, y: low), TilePoint(x: high, y: low), TilePoint(x: high, y: high), TilePoint(x: low, y: high)]
    }
}

extension TileFrame {
    /// What of a stored ring is in the tile: the whole ring, or the pieces inside, each from the square's edge to
    /// its edge in the ring's direction.
    enum RingCut {
        case whole([TilePoint])
        case pieces([[TilePoint]])
    }

    /// Cuts a stored ring by the clip square, simplified and rounded; nil when nothing of it is inside.
    /// `cornerInside` toggles when the ring goes round the square's top-left corner (even–odd).
    func cut(_ table: FeatureTable, part: Int, cornerInside: inout Bool) -> RingCut? {
        guard let (xs, ys) = projected(table, part: part), xs.count >= 3 else { return nil }
        if Self.surrounds(xs, ys, x: clipper.minimum, y: clipper.minimum) { cornerInside.toggle() }
        guard let outside = xs.indices.first(where: { !isInside(xs[$0], ys[$0]) }) else {
            let ring = path.ring(xs, ys)
            guard !ring.isEmpty, (TilePath.doubleArea(ring) > 0) == (Self.doubleArea(xs, ys) > 0) else { return nil }
            return .whole(ring)
        }
        // Start outside so that every piece runs from the edge to the edge.
        let order = Array(xs.indices[outside...]) + Array(xs.indices[..<outside]) + [outside]
        let pieces = clipper.clip(line: order.map { xs[$0] }, order.map { ys[$0] }).map { path.line($0.xs, $0.ys) }.filter { !$0.isEmpty }
        return pieces.isEmpty ? nil : .pieces(pieces)
    }

    /// The clip square's sides in tile units, for `EdgeStitcher`.
    var stitcher: EdgeStitcher { EdgeStitcher(low: Int32(clipper.minimum), high: Int32(clipper.maximum)) }

    private func isInside(_ x: Double, _ y: Double) -> Bool {
        x >= clipper.minimum && x <= clipper.maximum && y >= clipper.minimum && y <= clipper.maximum
    }

    private static func surrounds(_ xs: [Double], _ ys: [Double], x: Double, y: Double) -> Bool {
        var inside = false
        var previous = xs.count - 1
        for index in xs.indices {
            let (x0, y0, x1, y1) = (xs[previous], ys[previous], xs[index], ys[index])
            if (y0 > y) != (y1 > y), x < x0 + (y - y0) / (y1 - y0) * (x1 - x0) { inside.toggle() }
            previous = index
        }
        return inside
    }
}
