import BaseMap
import GeoCore

/// The bounds of runs of points along every part of a table, so that a tile looks only at the runs of a long
/// shoreline near it: run k of a part holds its points k·size … (k+1)·size, the last one shared with the next
/// run (the last run ends at the part's first point, closing the ring).
struct PartChunks: Sendable {
    static let size = 128
    /// Per part, the bounds of its runs in mercator metres.
    let bounds: [[MercatorRect]]

    init(_ table: FeatureTable) {
        bounds = table.partEnds.indices.map { part in
            let range = table.points(ofPart: part)
            return stride(from: 0, to: range.count, by: Self.size).map { start in
                let end = min(start + Self.size, range.count)
                var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
                for offset in start...end {
                    let index = range.lowerBound + offset % range.count
                    let (x, y) = (table.xs[index], table.ys[index])
                    box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
                }
                return MercatorRect(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY)
            }
        }
    }
}

extension TileFrame {
    /// What of a stored ring is in the tile: the whole ring, or the pieces inside, each from the square's edge to
    /// its edge in the ring's direction.
    enum RingCut {
        case whole([TilePoint])
        case pieces([[TilePoint]])
    }

    /// Cuts a stored ring by the clip square, simplified and rounded; nil when nothing of it is inside. Runs of
    /// the ring whose bounds miss the square are skipped whole. `cornerInside` toggles when the ring goes round
    /// the square's top-left corner (even–odd).
    func cut(_ table: FeatureTable, part: Int, runs: [MercatorRect], cornerInside: inout Bool) -> RingCut? {
        let range = table.points(ofPart: part)
        let count = range.count
        guard count >= 3 else { return nil }
        func index(_ offset: Int) -> Int { range.lowerBound + offset % count }
        func run(_ k: Int) -> ClosedRange<Int> { (k * PartChunks.size)...min((k + 1) * PartChunks.size, count) }
        // The corner's ray east crosses only runs that span its y and reach east of it.
        let (cornerX, cornerY) = (area.minX, area.maxY)
        for (k, box) in runs.enumerated() where box.minY <= cornerY && box.maxY > cornerY && box.maxX >= cornerX {
            let offsets = run(k)
            for offset in offsets.lowerBound..<offsets.upperBound {
                let (a, b) = (index(offset), index(offset + 1))
                let (x0, y0, x1, y1) = (table.xs[a], table.ys[a], table.xs[b], table.ys[b])
                if (y0 > cornerY) != (y1 > cornerY), cornerX < x0 + (cornerY - y0) / (y1 - y0) * (x1 - x0) { cornerInside.toggle() }
            }
        }
        let meets = runs.map { $0.intersects(area) }
        guard meets.contains(true) else { return nil }
        guard let outside = meets.firstIndex(of: false) else {
            guard let (xs, ys) = projected(table, part: part) else { return nil }
            if clipper.contains(xs, ys) {
                let ring = path.ring(xs, ys)
                guard !ring.isEmpty, (TilePath.doubleArea(ring) > 0) == (Self.doubleArea(xs, ys) > 0) else { return nil }
                return .whole(ring)
            }
            return pieces(of: xs, ys)
        }
        // From a run wholly outside, gather the runs that meet the square into lines that start and end outside.
        var lines: [(xs: [Double], ys: [Double])] = []
        var xs: [Double] = [], ys: [Double] = []
        for step in 1...runs.count {
            let k = (outside + step) % runs.count
            guard meets[k] else {
                if !xs.isEmpty { lines.append((xs, ys)) }
                (xs, ys) = ([], [])
                continue
            }
            let offsets = run(k)
            for offset in (xs.isEmpty ? offsets.lowerBound : offsets.lowerBound + 1)...offsets.upperBound {
                let (x, y) = point(x: table.xs[index(offset)], y: table.ys[index(offset)])
                xs.append(x)
                ys.append(y)
            }
        }
        if !xs.isEmpty { lines.append((xs, ys)) }
        let pieces = lines.flatMap { clipper.clip(line: $0.xs, $0.ys) }.map { path.line($0.xs, $0.ys) }.filter { !$0.isEmpty }
        return pieces.isEmpty ? nil : .pieces(pieces)
    }

    /// A ring with no run wholly outside but points outside: started at a point outside, clipped as a line.
    private func pieces(of xs: [Double], _ ys: [Double]) -> RingCut? {
        guard let outside = xs.indices.first(where: { !clipper.contains(xs[$0], ys[$0]) }) else { return nil }
        let order = Array(xs.indices[outside...]) + Array(xs.indices[..<outside]) + [outside]
        let pieces = clipper.clip(line: order.map { xs[$0] }, order.map { ys[$0] }).map { path.line($0.xs, $0.ys) }.filter { !$0.isEmpty }
        return pieces.isEmpty ? nil : .pieces(pieces)
    }

    /// The clip square's sides in tile units, for `EdgeStitcher`.
    var stitcher: EdgeStitcher { EdgeStitcher(low: Int32(clipper.minimum), high: Int32(clipper.maximum)) }
}
