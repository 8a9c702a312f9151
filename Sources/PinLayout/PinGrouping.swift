import GeoCore

/// Friends whose avatars would overlap by more than half become one group. Greedy, in priority order (as
/// supercluster and MapKit do it): each friend not yet grouped starts a group and takes every ungrouped
/// friend closer than the threshold to it. Groups never chain across a crowd, and lookups go through a hash
/// grid of threshold-sized cells.
enum PinGrouping {
    /// Clusters of indices into `points` (which come in priority order); each lists its seed first, then its
    /// members in index order.
    static func clusters(of points: [ScreenPoint], threshold: Double) -> [[Int]] {
        struct Cell: Hashable { let x: Int; let y: Int }
        func cell(_ point: ScreenPoint) -> Cell {
            Cell(x: Int((point.x / threshold).rounded(.down)), y: Int((point.y / threshold).rounded(.down)))
        }
        var grid: [Cell: [Int]] = [:]
        for (index, point) in points.enumerated() { grid[cell(point), default: []].append(index) }
        var assigned = [Bool](repeating: false, count: points.count)
        var clusters: [[Int]] = []
        for (seed, point) in points.enumerated() where !assigned[seed] {
            assigned[seed] = true
            var members = [seed]
            let home = cell(point)
            for dy in -1...1 {
                for dx in -1...1 {
                    for other in grid[Cell(x: home.x + dx, y: home.y + dy)] ?? [] where !assigned[other] {
                        let (ddx, ddy) = (points[other].x - point.x, points[other].y - point.y)
                        guard ddx * ddx + ddy * ddy < threshold * threshold else { continue }
                        assigned[other] = true
                        members.append(other)
                    }
                }
            }
            clusters.append([seed] + members.dropFirst().sorted())
        }
        return clusters
    }
}
