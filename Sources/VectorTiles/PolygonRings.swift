/// Orders a polygon feature's rings as MVT 2.1 wants them: each exterior ring (positive area in tile units)
/// followed by the holes inside it. Rings smaller than a minimum area are left out, with the holes of a
/// dropped exterior.
enum PolygonRings {
    static func ordered(_ rings: [[TilePoint]], minArea: Int64) -> [[TilePoint]] {
        let kept = rings.filter { abs(TilePath.doubleArea($0)) >= max(minArea, 1) }
        let exteriors = kept.indices.filter { TilePath.doubleArea(kept[$0]) > 0 }
        guard !exteriors.isEmpty else { return [] }
        var holes = [[Int]](repeating: [], count: kept.count)
        for index in kept.indices where TilePath.doubleArea(kept[index]) < 0 {
            // The smallest exterior around the hole; failing that (a hole touching its exterior), the one before it.
            let around = exteriors.filter { contains(kept[$0], point: kept[index][0]) }
                .min { TilePath.doubleArea(kept[$0]) < TilePath.doubleArea(kept[$1]) }
            guard let owner = around ?? exteriors.last(where: { $0 < index }) else { continue }
            holes[owner].append(index)
        }
        return exteriors.flatMap { [kept[$0]] + holes[$0].map { kept[$0] } }
    }

    /// Even-odd point in ring.
    static func contains(_ ring: [TilePoint], point: TilePoint) -> Bool {
        var inside = false
        var previous = ring[ring.count - 1]
        let (px, py) = (Double(point.x), Double(point.y))
        for current in ring {
            let (x0, y0, x1, y1) = (Double(previous.x), Double(previous.y), Double(current.x), Double(current.y))
            if (y0 > py) != (y1 > py), px < x0 + (py - y0) / (y1 - y0) * (x1 - x0) { inside.toggle() }
            previous = current
        }
        return inside
    }
}
