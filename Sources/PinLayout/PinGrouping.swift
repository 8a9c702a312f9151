import GeoCore

/// Friends whose round avatars would overlap by more than the style allows become one group. Greedy, in
/// priority order (as supercluster and MapKit do it): each point not yet grouped starts a group and takes,
/// nearest first, every ungrouped point closer than the threshold to the group's running centre (the mean of
/// its members weighted by how many friends each stands for, where the group's avatar is drawn). Groups that end up closer than the threshold merge, so no
/// two avatars are. The nearest friend comes from a `GridIndex` of quarter-threshold cells searched ring by
/// ring, which friends leave as they join a group, so a join in a dense crowd reads a few cells, not all in reach.
enum PinGrouping {
    struct Group {
        /// Indices into the points, in the order they joined (the seed first).
        var members: [Int]
        var centre: ScreenPoint
    }

    /// Groups of `points` (which come in priority order), in the order of their seeds; `weights` (one per
    /// point, all 1 when empty) weigh the centres.
    static func groups(of points: [ScreenPoint], weights: [Int] = [], threshold: Double) -> [Group] {
        let weights = weights.isEmpty ? [Int](repeating: 1, count: points.count) : weights
        // A threshold of zero (or less, or not a number) groups nobody.
        guard threshold > 0, threshold.isFinite else { return points.indices.map { Group(members: [$0], centre: points[$0]) } }
        let extent = bounds(of: points)
        // Cells of a quarter of the threshold: the nearest friend in a crowd is usually found in the first ring;
        // where the points are sparser than that (deep zooms), about one point a cell, so a grid costs no more
        // than its points.
        var grid = GridIndex(extent: extent, cellSize: max(threshold / 4, sparseCell(extent, points.count)))
        for (index, point) in points.enumerated() { grid.insert(index, ScreenRect(x: point.x, y: point.y, width: 0, height: 0)) }
        var groups: [Group] = []
        for seed in points.indices where grid.box(seed) != nil {
            grid.remove(seed)
            var group = Group(members: [seed], centre: points[seed])
            var weight = Double(weights[seed])
            var sum = (x: weight * points[seed].x, y: weight * points[seed].y)
            while let next = nearest(to: group.centre, within: threshold, points: points, grid: grid) {
                grid.remove(next)
                group.members.append(next)
                let w = Double(weights[next])
                sum = (sum.x + w * points[next].x, sum.y + w * points[next].y)
                weight += w
                group.centre = ScreenPoint(x: sum.x / weight, y: sum.y / weight)
            }
            groups.append(group)
        }
        return merged(groups, points: points, weights: weights, threshold: threshold, extent: extent)
    }

    /// The smallest box holding every point.
    private static func bounds(of points: [ScreenPoint]) -> ScreenRect {
        guard let first = points.first else { return ScreenRect(x: 0, y: 0, width: 0, height: 0) }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points {
            (minX, minY, maxX, maxY) = (min(minX, point.x), min(minY, point.y), max(maxX, point.x), max(maxY, point.y))
        }
        return ScreenRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The side of a cell holding about one of `count` points spread evenly over `extent`.
    private static func sparseCell(_ extent: ScreenRect, _ count: Int) -> Double {
        (extent.width * extent.height / Double(max(count, 1))).squareRoot()
    }

    /// The weighted mean of some of the points.
    static func mean(_ members: [Int], points: [ScreenPoint], weights: [Int]) -> ScreenPoint {
        var (x, y, total) = (0.0, 0.0, 0.0)
        for member in members {
            let w = Double(weights[member])
            (x, y, total) = (x + w * points[member].x, y + w * points[member].y, total + w)
        }
        return ScreenPoint(x: x / total, y: y / total)
    }

    /// The box of points within `threshold` of `centre` (and a little more).
    private static func reach(_ centre: ScreenPoint, _ threshold: Double) -> ScreenRect {
        ScreenRect(x: centre.x - threshold, y: centre.y - threshold, width: 2 * threshold, height: 2 * threshold)
    }

    private static func isClose(_ a: ScreenPoint, _ b: ScreenPoint, _ threshold: Double) -> Bool {
        let (dx, dy) = (a.x - b.x, a.y - b.y)
        return dx * dx + dy * dy < threshold * threshold
    }

    /// The point in the grid nearest `centre` and closer than `threshold` (the lower index of two as near).
    private static func nearest(to centre: ScreenPoint, within threshold: Double, points: [ScreenPoint], grid: GridIndex) -> Int? {
        grid.nearest(to: centre, squaredRadius: threshold * threshold) { other in
            let (dx, dy) = (points[other].x - centre.x, points[other].y - centre.y)
            return dx * dx + dy * dy
        }
    }

    /// Merges groups whose centres are closer than the threshold, until none are: always the first such pair in
    /// order (the later into the earlier). After a merge only pairs with the merged group can be new, so the
    /// walk goes on from the earliest of those, or from the merged group.
    private static func merged(_ groups: [Group], points: [ScreenPoint], weights: [Int], threshold: Double, extent: ScreenRect) -> [Group] {
        var groups = groups
        var grid = GridIndex(extent: extent, cellSize: max(threshold, sparseCell(extent, groups.count)))
        for (index, group) in groups.enumerated() { grid.insert(index, ScreenRect(x: group.centre.x, y: group.centre.y, width: 0, height: 0)) }
        func closest(to index: Int, where keep: (Int) -> Bool) -> Int? {
            var found: Int?
            grid.forEach(meeting: reach(groups[index].centre, threshold)) { other in
                guard other != index, keep(other), isClose(groups[other].centre, groups[index].centre, threshold), other < found ?? .max else { return }
                found = other
            }
            return found
        }
        var index = 0
        while index < groups.count {
            guard grid.box(index) != nil, let other = closest(to: index, where: { $0 > index }) else {
                index += 1
                continue
            }
            groups[index].members += groups[other].members
            groups[index].centre = mean(groups[index].members, points: points, weights: weights)
            grid.remove(other)
            grid.insert(index, ScreenRect(x: groups[index].centre.x, y: groups[index].centre.y, width: 0, height: 0))
            if let earlier = closest(to: index, where: { $0 < index }) { index = earlier }
        }
        return groups.indices.filter { grid.box($0) != nil }.map { groups[$0] }
    }
}
