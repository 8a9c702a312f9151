import GeoCore

/// Friends whose avatars would overlap by more than half become one group. Greedy, in priority order (as
/// supercluster and MapKit do it): each friend not yet grouped starts a group and takes every ungrouped
/// friend closer than the threshold to it. Groups never chain across a crowd; neighbours are found in a flat
/// grid of threshold-sized cells over the points' bounds.
enum PinGrouping {
    /// Clusters of indices into `points` (which come in priority order); each lists its seed first, then its
    /// members in index order.
    static func clusters(of points: [ScreenPoint], threshold: Double) -> [[Int]] {
        guard let first = points.first else { return [] }
        // A threshold of zero (or less, or not a number) groups nobody.
        guard threshold > 0, threshold.isFinite else { return points.indices.map { [$0] } }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points {
            minX = min(minX, point.x); minY = min(minY, point.y); maxX = max(maxX, point.x); maxY = max(maxY, point.y)
        }
        let columns = Int((maxX - minX) / threshold) + 1
        let rows = Int((maxY - minY) / threshold) + 1
        func cell(_ point: ScreenPoint) -> (Int, Int) { (Int((point.x - minX) / threshold), Int((point.y - minY) / threshold)) }
        var grid: [Int: [Int]] = [:]
        for (index, point) in points.enumerated() {
            let (x, y) = cell(point)
            grid[y * columns + x, default: []].append(index)
        }
        var assigned = [Bool](repeating: false, count: points.count)
        var clusters: [[Int]] = []
        for (seed, point) in points.enumerated() where !assigned[seed] {
            assigned[seed] = true
            var members: [Int] = []
            let (cx, cy) = cell(point)
            for y in max(cy - 1, 0)...min(cy + 1, rows - 1) {
                for x in max(cx - 1, 0)...min(cx + 1, columns - 1) {
                    for other in grid[y * columns + x] ?? [] where !assigned[other] {
                        let (dx, dy) = (points[other].x - point.x, points[other].y - point.y)
                        guard dx * dx + dy * dy < threshold * threshold else { continue }
                        assigned[other] = true
                        members.append(other)
                    }
                }
            }
            clusters.append([seed] + members.sorted())
        }
        return clusters
    }
}
