import GeoCore

/// Groups at every whole zoom, one inside the next, as supercluster builds them: friends are grouped at the
/// deepest zoom, then each zoom groups the groups of the zoom above (their centres weighted by how many friends
/// they hold), in Web Mercator metres with the grouping distance that zoom gives. A fractional zoom shows the
/// groups of the whole zoom below it, whose avatars are then at least as far apart as when grouped, so the same
/// friends split and merge at the same zooms whichever way the map zooms and wherever it is centred. Each level
/// is flat arrays (`PinGrouping.Flat`): its groups' centres and, as members, the groups of the level above.
struct GroupHierarchy {
    /// The deepest zoom grouped: above it, friends stay grouped as they are there (only those who stand
    /// closer than the grouping distance at this zoom, a metre or so, still share a bubble).
    static let deepestZoom = 20

    /// Levels from the deepest zoom down: `levels[0]` is `deepestZoom`, whose members are friends.
    private(set) var levels: [PinGrouping.Flat] = []

    /// The hierarchy of friends at (`x[i]`, `y[i]`) (metres, in priority order) from the deepest zoom down to
    /// `zoom`, for avatars `distance` points apart or closer to group.
    init(x: [Double], y: [Double], distance: Double, downTo zoom: Int) {
        var (x, y, weights) = (x, y, [Int](repeating: 1, count: x.count))
        for level in stride(from: Self.deepestZoom, through: min(max(zoom, 0), Self.deepestZoom), by: -1) {
            let threshold = distance * WebMercator.worldSize / (Viewport.tileSize * Double(1 << level))
            let groups = PinGrouping.grouped(x: x, y: y, weights: weights, threshold: threshold)
            levels.append(groups)
            (x, y, weights) = (groups.x, groups.y, groups.weight)
        }
    }

    /// The whole zoom whose groups a fractional zoom shows.
    static func level(of zoom: Double) -> Int { Int(min(max(zoom.rounded(.down), 0), Double(deepestZoom))) }

    /// The groups shown at `zoom` (which must be one this hierarchy reaches).
    func groups(at zoom: Int) -> PinGrouping.Flat { levels[Self.deepestZoom - zoom] }

    /// The members of group `index` of `level` (an index into `levels`).
    private func children(of index: Int, in level: Int) -> ArraySlice<Int> {
        levels[level].members[levels[level].start[index]..<levels[level].start[index + 1]]
    }

    /// The friends (indices into the points) of every group at `zoom`, each group's in priority order: group `g`'s
    /// are `members[start[g]..<start[g + 1]]`. Each friend is given its group level by level, then the friends are
    /// dealt to their groups in index order, so no group's members need sorting.
    func members(at zoom: Int) -> (start: [Int], members: [Int]) {
        let top = Self.deepestZoom - zoom
        var owner = Array(0..<levels[top].count)
        for depth in stride(from: top, through: 0, by: -1) {
            // Every group or friend of the level above is a member of exactly one group of this level.
            var below = [Int](repeating: 0, count: levels[depth].members.count)
            for group in 0..<levels[depth].count {
                for member in children(of: group, in: depth) { below[member] = owner[group] }
            }
            owner = below
        }
        var start = [Int](repeating: 0, count: levels[top].count + 1)
        for group in owner { start[group + 1] += 1 }
        for group in 0..<levels[top].count { start[group + 1] += start[group] }
        var next = start
        var members = [Int](repeating: 0, count: owner.count)
        for (friend, group) in owner.enumerated() {
            members[next[group]] = friend
            next[group] += 1
        }
        return (start, members)
    }

    /// The zoom at which group `index` of `zoom` splits into two or more groups (nil when its friends stand
    /// together even at the deepest zoom).
    func splitZoom(of index: Int, at zoom: Int) -> Int? {
        var (node, level) = (index, zoom)
        while level < Self.deepestZoom, children(of: node, in: Self.deepestZoom - level).count == 1 {
            node = children(of: node, in: Self.deepestZoom - level).first!
            level += 1
        }
        return level < Self.deepestZoom ? level + 1 : nil
    }
}
