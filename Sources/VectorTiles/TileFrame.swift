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
    let left: Double
    let top: Double
    let clipper: TileClipper
    let path: TilePath

    init(tile: TileID, extent: Int, buffer: Int, tolerance: Double) {
        self.tile = tile
        self.extent = extent
        let bounds = tile.mercatorBounds
        unitsPerMetre = Double(extent) / tile.span
        (left, top) = (tile.topLeft.x, tile.topLeft.y)
        area = bounds.outset(by: Double(buffer) / unitsPerMetre)
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
        if !clipper.contains(xs, ys) { (xs, ys) = clipper.clip(ring: xs, ys) }
        guard xs.count >= 3 else { return [] }
        let ring = path.ring(xs, ys)
        guard !ring.isEmpty, (TilePath.doubleArea(ring) > 0) == (Self.doubleArea(xs, ys) > 0) else { return [] }
        return ring
    }

    /// A stored line clipped, simplified and rounded: the pieces left inside.
    func lines(_ table: FeatureTable, part: Int) -> [[TilePoint]] {
        guard let (xs, ys) = projected(table, part: part), xs.count >= 2 else { return [] }
        let pieces = clipper.contains(xs, ys) ? [(xs, ys)] : clipper.clip(line: xs, ys)
        return pieces.map { path.line($0.xs, $0.ys) }.filter { !$0.isEmpty }
    }

    /// A part's points in tile units, or nil when its bounds miss the clip square.
    func projected(_ table: FeatureTable, part: Int) -> ([Double], [Double])? {
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

    static func doubleArea(_ xs: [Double], _ ys: [Double]) -> Double {
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

