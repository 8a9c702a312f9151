/// A point in tile units (0…extent across the tile, y down), as vector tiles store it.
struct TilePoint: Equatable {
    var x: Int32
    var y: Int32
}

/// Simplifies clipped geometry to a tile's resolution and rounds it to whole tile units: Douglas–Peucker
/// keeps only source points (and clip points), so each kept point is within half a unit's rounding of the source.
struct TilePath {
    /// Squared tolerance in tile units.
    let toleranceSquared: Double

    /// A line's points, simplified and rounded, repeats removed; empty when fewer than two are left.
    func line(_ xs: [Double], _ ys: [Double]) -> [TilePoint] {
        let points = rounded(xs, ys, kept: keptIndices(xs, ys, closed: false))
        return points.count >= 2 ? points : []
    }

    /// A ring's points (not repeating the first), simplified and rounded; empty when it has no area left.
    func ring(_ xs: [Double], _ ys: [Double]) -> [TilePoint] {
        guard xs.count >= 3 else { return [] }
        var points = rounded(xs, ys, kept: keptIndices(xs + [xs[0]], ys + [ys[0]], closed: true))
        if points.count > 1, points.first == points.last { points.removeLast() }
        return points.count >= 3 && Self.doubleArea(points) != 0 ? points : []
    }

    /// Twice the signed area of a ring in tile units (positive for an exterior ring: clockwise on screen, y down).
    static func doubleArea(_ ring: [TilePoint]) -> Int64 {
        var sum: Int64 = 0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += Int64(previous.x) * Int64(point.y) - Int64(point.x) * Int64(previous.y)
            previous = point
        }
        return sum
    }

    private func rounded(_ xs: [Double], _ ys: [Double], kept: [Int]) -> [TilePoint] {
        var points: [TilePoint] = []
        points.reserveCapacity(kept.count)
        for index in kept {
            let point = TilePoint(x: Int32(xs[index].rounded()), y: Int32(ys[index].rounded()))
            if points.last != point { points.append(point) }
        }
        return points
    }

    /// The indices Douglas–Peucker keeps (ascending), first and last always; for a ring the last index
    /// (the first point repeated) is left out.
    private func keptIndices(_ xs: [Double], _ ys: [Double], closed: Bool) -> [Int] {
        let last = xs.count - 1
        var keep = [Bool](repeating: false, count: xs.count)
        keep[0] = true
        keep[last] = true
        var stack = [(0, last)]
        while let (first, end) = stack.popLast() {
            guard end > first + 1 else { continue }
            var farthest = first, farthestDistance = -1.0
            for index in (first + 1)..<end {
                let distance = Self.squaredDistance(xs[index], ys[index], from: xs[first], ys[first], to: xs[end], ys[end])
                if distance > farthestDistance {
                    farthestDistance = distance
                    farthest = index
                }
            }
            if farthestDistance > toleranceSquared {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, end))
            }
        }
        return (0...(closed ? last - 1 : last)).filter { keep[$0] }
    }

    /// The squared distance from a point to a segment (to its one point when it has no length).
    private static func squaredDistance(_ px: Double, _ py: Double, from ax: Double, _ ay: Double, to bx: Double, _ by: Double) -> Double {
        var (x, y) = (ax, ay)
        let dx = bx - ax, dy = by - ay
        if dx != 0 || dy != 0 {
            let t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                (x, y) = (bx, by)
            } else if t > 0 {
                (x, y) = (ax + dx * t, ay + dy * t)
            }
        }
        return (px - x) * (px - x) + (py - y) * (py - y)
    }
}
