import GeoCore

/// Friends whose avatars would overlap by more than half become one group: single-linkage clustering of
/// screen points closer than the threshold, found through a hash grid of threshold-sized cells.
enum PinGrouping {
    /// Clusters of indices into `points`; each cluster lists its members in index order (priority order).
    static func clusters(of points: [ScreenPoint], threshold: Double) -> [[Int]] {
        var parent = Array(points.indices)
        func root(_ index: Int) -> Int {
            var node = index
            while parent[node] != node {
                parent[node] = parent[parent[node]]
                node = parent[node]
            }
            return node
        }
        struct Cell: Hashable { let x: Int; let y: Int }
        func cell(_ point: ScreenPoint) -> Cell {
            Cell(x: Int((point.x / threshold).rounded(.down)), y: Int((point.y / threshold).rounded(.down)))
        }
        var grid: [Cell: [Int]] = [:]
        for (index, point) in points.enumerated() {
            let home = cell(point)
            for dy in -1...1 {
                for dx in -1...1 {
                    for other in grid[Cell(x: home.x + dx, y: home.y + dy)] ?? [] {
                        let (ddx, ddy) = (points[other].x - point.x, points[other].y - point.y)
                        guard ddx * ddx + ddy * ddy < threshold * threshold else { continue }
                        let (a, b) = (root(index), root(other))
                        if a != b { parent[max(a, b)] = min(a, b) }
                    }
                }
            }
            grid[home, default: []].append(index)
        }
        var clusters: [Int: [Int]] = [:]
        var order: [Int] = []
        for index in points.indices {
            let key = root(index)
            if clusters[key] == nil { order.append(key) }
            clusters[key, default: []].append(index)
        }
        return order.map { clusters[$0]! }
    }
}
