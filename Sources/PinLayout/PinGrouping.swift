import GeoCore

/// Friends whose round avatars would overlap by more than the style allows become one group. Greedy, in
/// priority order (as supercluster and MapKit do it): each friend not yet grouped starts a group and takes,
/// nearest first, every ungrouped friend closer than the threshold to the group's running centre (the mean of
/// its members, where the group's avatar is drawn). Groups that end up closer than the threshold merge, so no
/// two avatars are. Neighbours come from a flat grid of threshold-sized cells over the points' bounds.
enum PinGrouping {
    struct Group {
        /// Indices into the points, in the order they joined (the seed first).
        var members: [Int]
        var centre: ScreenPoint
    }

    /// Groups of `points` (which come in priority order), in the order of their seeds.
    static func groups(of points: [ScreenPoint], threshold: Double) -> [Group] {
        guard let first = points.first else { return [] }
        // A threshold of zero (or less, or not a number) groups nobody.
        guard threshold > 0, threshold.isFinite else { return points.indices.map { Group(members: [$0], centre: points[$0]) } }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points {
            minX = min(minX, point.x); minY = min(minY, point.y); maxX = max(maxX, point.x); maxY = max(maxY, point.y)
        }
        let columns = Int((maxX - minX) / threshold) + 1
        let rows = Int((maxY - minY) / threshold) + 1
        func cell(_ point: ScreenPoint) -> (Int, Int) {
            (min(max(Int(((point.x - minX) / threshold).rounded(.down)), 0), columns - 1),
             min(max(Int(((point.y - minY) / threshold).rounded(.down)), 0), rows - 1))
        }
        var grid: [Int: [Int]] = [:]
        for (index, point) in points.enumerated() {
            let (x, y) = cell(point)
            grid[y * columns + x, default: []].append(index)
        }
        var assigned = [Bool](repeating: false, count: points.count)
        var groups: [Group] = []
        for seed in points.indices where !assigned[seed] {
            assigned[seed] = true
            var group = Group(members: [seed], centre: points[seed])
            while let next = nearestUnassigned(to: group.centre, within: threshold, points: points, grid: grid, columns: columns, rows: rows,
                                               cell: cell, assigned: assigned) {
                assigned[next] = true
                group.members.append(next)
                group.centre = mean(group.members.map { points[$0] })
            }
            groups.append(group)
        }
        return merged(groups, points: points, threshold: threshold)
    }

    /// The mean of some points.
    static func mean(_ points: [ScreenPoint]) -> ScreenPoint {
        ScreenPoint(x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
    }

    private static func nearestUnassigned(to centre: ScreenPoint, within threshold: Double, points: [ScreenPoint], grid: [Int: [Int]],
                                          columns: Int, rows: Int, cell: (ScreenPoint) -> (Int, Int), assigned: [Bool]) -> Int? {
        let (cx, cy) = cell(centre)
        var best: (index: Int, distance: Double)?
        for y in max(cy - 1, 0)...min(cy + 1, rows - 1) {
            for x in max(cx - 1, 0)...min(cx + 1, columns - 1) {
                for other in grid[y * columns + x] ?? [] where !assigned[other] {
                    let (dx, dy) = (points[other].x - centre.x, points[other].y - centre.y)
                    let distance = dx * dx + dy * dy
                    guard distance < threshold * threshold, distance < best?.distance ?? .infinity else { continue }
                    best = (other, distance)
                }
            }
        }
        return best?.index
    }

    /// Merges groups whose centres are closer than the threshold (the later into the earlier), until none are.
    private static func merged(_ groups: [Group], points: [ScreenPoint], threshold: Double) -> [Group] {
        var groups = groups
        var changed = true
        while changed {
            changed = false
            search: for index in groups.indices {
                for other in groups.indices where other > index {
                    let (dx, dy) = (groups[other].centre.x - groups[index].centre.x, groups[other].centre.y - groups[index].centre.y)
                    guard dx * dx + dy * dy < threshold * threshold else { continue }
                    groups[index].members += groups[other].members
                    groups[index].centre = mean(groups[index].members.map { points[$0] })
                    groups.remove(at: other)
                    changed = true
                    break search
                }
            }
        }
        return groups
    }
}
