import GeoCore

/// Groups at every whole zoom, one inside the next, as supercluster builds them: friends are grouped at the
/// deepest zoom, then each zoom groups the groups of the zoom above (their centres weighted by how many friends
/// they hold), in Web Mercator metres with the grouping distance that zoom gives. A fractional zoom shows the
/// groups of the whole zoom below it, whose avatars are then at least as far apart as when grouped, so the same
/// friends split and merge at the same zooms whichever way the map zooms and wherever it is centred.
struct GroupHierarchy {
    /// The deepest zoom grouped: above it, friends stay grouped as they are there (only those who stand
    /// closer than the grouping distance at this zoom, a metre or so, still share a bubble).
    static let deepestZoom = 20

    /// A group at one zoom: its centre in metres and the groups of the zoom above it holds (friends, at the deepest).
    struct Node {
        let centre: ScreenPoint
        let weight: Int
        let children: [Int]
    }

    /// Levels from the deepest zoom down: `levels[0]` is `deepestZoom`.
    private(set) var levels: [[Node]] = []

    /// The hierarchy of friends at `points` (metres, in priority order) from the deepest zoom down to `zoom`,
    /// for avatars `distance` points apart or closer to group.
    init(points: [ScreenPoint], distance: Double, downTo zoom: Int) {
        var centres = points
        var weights = [Int](repeating: 1, count: points.count)
        for level in stride(from: Self.deepestZoom, through: min(max(zoom, 0), Self.deepestZoom), by: -1) {
            let threshold = distance * WebMercator.worldSize / (Viewport.tileSize * Double(1 << level))
            let groups = PinGrouping.groups(of: centres, weights: weights, threshold: threshold)
            let nodes = groups.map { group in
                Node(centre: group.centre, weight: group.members.reduce(0) { $0 + weights[$1] }, children: group.members)
            }
            levels.append(nodes)
            (centres, weights) = (nodes.map(\.centre), nodes.map(\.weight))
        }
    }

    /// The whole zoom whose groups a fractional zoom shows.
    static func level(of zoom: Double) -> Int { Int(min(max(zoom.rounded(.down), 0), Double(deepestZoom))) }

    /// The groups shown at `zoom` (which must be one this hierarchy reaches).
    func nodes(at zoom: Int) -> [Node] { levels[Self.deepestZoom - zoom] }

    /// The friends (indices into the points) of node `index` at `zoom`, in priority order.
    func members(of index: Int, at zoom: Int) -> [Int] {
        var current = [index]
        for depth in stride(from: Self.deepestZoom - zoom, to: 0, by: -1) {
            current = current.flatMap { levels[depth][$0].children }
        }
        return current.flatMap { levels[0][$0].children }.sorted()
    }

    /// The zoom at which node `index` of `zoom` splits into two or more groups (nil when its friends stand
    /// together even at the deepest zoom).
    func splitZoom(of index: Int, at zoom: Int) -> Int? {
        var node = levels[Self.deepestZoom - zoom][index]
        var level = zoom
        while level < Self.deepestZoom, node.children.count == 1 {
            level += 1
            node = levels[Self.deepestZoom - level][node.children[0]]
        }
        return level < Self.deepestZoom ? level + 1 : nil
    }
}
