import Foundation
import GeoCore

/// The point inside a polygon farthest from its outline (Mapbox's polylabel): square cells over the polygon,
/// searched best-first by the distance a cell could still reach, split until no cell can beat the best by
/// more than the precision. Where a label goes inside an irregular shape; a centroid can fall outside it.
enum PoleOfInaccessibility {
    private struct Cell {
        let x: Double
        let y: Double
        let half: Double
        /// Signed distance from the centre to the outline (negative outside).
        let distance: Double
        var potential: Double { distance + half * 2.0.squareRoot() }
    }

    /// The pole of `rings` (an outer ring and its holes, in metres), to within `precision` metres.
    static func find(_ rings: [[MercatorPoint]], precision: Double) -> MercatorPoint {
        guard let outer = rings.first, let first = outer.first else { return MercatorPoint(x: 0, y: 0) }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in outer {
            minX = min(minX, point.x); minY = min(minY, point.y); maxX = max(maxX, point.x); maxY = max(maxY, point.y)
        }
        let size = min(maxX - minX, maxY - minY)
        guard size > 0 else { return first }
        func cell(_ x: Double, _ y: Double, _ half: Double) -> Cell { Cell(x: x, y: y, half: half, distance: signedDistance(x, y, rings)) }
        var queue: [Cell] = []
        var y = minY
        while y < maxY {
            var x = minX
            while x < maxX {
                queue.append(cell(x + size / 2, y + size / 2, size / 2))
                x += size
            }
            y += size
        }
        var best = cell((minX + maxX) / 2, (minY + maxY) / 2, 0)
        while let next = popBest(&queue) {
            if next.distance > best.distance { best = next }
            guard next.potential - best.distance > precision else { continue }
            let half = next.half / 2
            for (dx, dy) in [(-half, -half), (half, -half), (-half, half), (half, half)] { queue.append(cell(next.x + dx, next.y + dy, half)) }
        }
        return MercatorPoint(x: best.x, y: best.y)
    }

    /// The cell with the greatest potential, removed from the queue (a linear scan: queues stay small).
    private static func popBest(_ queue: inout [Cell]) -> Cell? {
        guard !queue.isEmpty else { return nil }
        var index = 0
        for candidate in queue.indices where queue[candidate].potential > queue[index].potential { index = candidate }
        queue.swapAt(index, queue.count - 1)
        return queue.removeLast()
    }

    /// Distance from (x, y) to the nearest ring edge, negative when the point is outside (even-odd).
    static func signedDistance(_ x: Double, _ y: Double, _ rings: [[MercatorPoint]]) -> Double {
        var inside = false
        var nearest = Double.infinity
        for ring in rings where ring.count >= 2 {
            var previous = ring[ring.count - 1]
            for point in ring {
                if (point.y > y) != (previous.y > y), x < (previous.x - point.x) * (y - point.y) / (previous.y - point.y) + point.x { inside.toggle() }
                nearest = min(nearest, segmentDistanceSquared(x, y, previous, point))
                previous = point
            }
        }
        return (inside ? 1 : -1) * nearest.squareRoot()
    }

    private static func segmentDistanceSquared(_ x: Double, _ y: Double, _ a: MercatorPoint, _ b: MercatorPoint) -> Double {
        var (px, py) = (a.x, a.y)
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        if dx != 0 || dy != 0 {
            let t = ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                (px, py) = (b.x, b.y)
            } else if t > 0 {
                (px, py) = (a.x + dx * t, a.y + dy * t)
            }
        }
        return (x - px) * (x - px) + (y - py) * (y - py)
    }

    /// Up to `count` more label points well inside the polygon and apart from `pole` and from each other: the
    /// inside points of a grid over it, deepest first, at least the pole's depth apart, each at least
    /// `minimumShare` of the pole's depth from the outline.
    static func alternatives(to pole: MercatorPoint, in rings: [[MercatorPoint]], count: Int, grid: Int = 16, minimumShare: Double = 0.4) -> [MercatorPoint] {
        guard let outer = rings.first, !outer.isEmpty else { return [] }
        let depth = signedDistance(pole.x, pole.y, rings)
        guard depth > 0 else { return [] }
        let (minX, maxX) = (outer.map(\.x).min()!, outer.map(\.x).max()!)
        let (minY, maxY) = (outer.map(\.y).min()!, outer.map(\.y).max()!)
        var candidates: [(point: MercatorPoint, depth: Double)] = []
        for row in 0..<grid {
            for column in 0..<grid {
                let point = MercatorPoint(x: minX + (Double(column) + 0.5) / Double(grid) * (maxX - minX),
                                          y: minY + (Double(row) + 0.5) / Double(grid) * (maxY - minY))
                let inside = signedDistance(point.x, point.y, rings)
                if inside >= minimumShare * depth { candidates.append((point, inside)) }
            }
        }
        var chosen = [pole]
        for candidate in candidates.sorted(by: { ($0.depth, $0.point.y, $0.point.x) > ($1.depth, $1.point.y, $1.point.x) }) where chosen.count <= count {
            if chosen.allSatisfy({ hypot($0.x - candidate.point.x, $0.y - candidate.point.y) >= depth }) { chosen.append(candidate.point) }
        }
        return Array(chosen.dropFirst())
    }
}
