/// A contraction hierarchy of a `RoadGraph` (Geisberger et al. 2008, in RoutingKit's flat-array shape). Nodes are
/// contracted one at a time in order of a priority (twice the edge difference, plus contracted neighbours, plus
/// the level under the node; updated lazily);
/// contracting v adds a shortcut u→w for each pair of its remaining neighbours unless a witness search finds a
/// path u→w avoiding v that is no longer. A witness search that stops early (at `witnessSettleLimit` nodes) only
/// adds shortcuts, so the hierarchy stays exact. A query then searches upward from both ends (`RouteSearch`).
///
/// Chosen over A* with landmarks: the street graph is static between imports, so paying a second of preprocessing
/// buys queries that settle a few hundred nodes instead of thousands, and re-routes cost as little as routes.
public struct ContractionHierarchy: Sendable {
    public static let witnessSettleLimit = 400
    static let simulationSettleLimit = 60
    /// The order each node was contracted in (0 first): searches only ever climb to higher ranks.
    public let rank: [Int32]
    /// Every arc of the hierarchy: the graph's arcs first (same index), then shortcuts.
    let arcTail: [Int32], arcHead: [Int32], arcWeight: [Double]
    /// The two arcs a shortcut stands for; -1 for an arc of the graph.
    let arcFirst: [Int32], arcSecond: [Int32]
    /// Arcs climbing from each node (`rank[head] > rank[tail]`), as CSR over the tail.
    let upStart: [Int32], upArcs: [Int32]
    /// Arcs arriving at each node from above (`rank[tail] > rank[head]`), as CSR over the head.
    let downStart: [Int32], downArcs: [Int32]

    /// How many shortcuts contraction added to the graph's arcs.
    public var shortcutCount: Int { arcTail.count - originalArcCount }
    let originalArcCount: Int

    /// Contracts every node of `graph`.
    public init(graph: RoadGraph) {
        var builder = Builder(graph: graph)
        builder.contractAll()
        let (rank, tails, heads) = (builder.rank, builder.tails, builder.heads)
        self.rank = rank
        arcTail = tails; arcHead = heads; arcWeight = builder.weights
        arcFirst = builder.firsts; arcSecond = builder.seconds
        originalArcCount = graph.arcHead.count
        (upStart, upArcs) = Self.csr(count: graph.nodeCount, arcs: tails.indices.filter { rank[Int(heads[$0])] > rank[Int(tails[$0])] }, key: tails)
        (downStart, downArcs) = Self.csr(count: graph.nodeCount, arcs: tails.indices.filter { rank[Int(tails[$0])] > rank[Int(heads[$0])] }, key: heads)
    }

    private static func csr(count: Int, arcs: [Int], key: [Int32]) -> ([Int32], [Int32]) {
        var start = [Int32](repeating: 0, count: count + 1)
        for arc in arcs { start[Int(key[arc]) + 1] += 1 }
        for index in 1..<start.count { start[index] += start[index - 1] }
        var next = start
        var ordered = [Int32](repeating: 0, count: arcs.count)
        for arc in arcs {
            ordered[Int(next[Int(key[arc])])] = Int32(arc)
            next[Int(key[arc])] += 1
        }
        return (start, ordered)
    }

    /// Appends the graph arcs that hierarchy arc `arc` stands for, in driving order.
    func unpack(_ arc: Int32, into path: inout [Int]) {
        var stack = [arc]
        while let top = stack.popLast() {
            if arcFirst[Int(top)] < 0 {
                path.append(Int(top))
            } else {
                stack.append(arcSecond[Int(top)])
                stack.append(arcFirst[Int(top)])
            }
        }
    }

    /// The contraction itself: adjacency lists of the nodes not yet contracted, and the growing arc table.
    private struct Builder {
        var tails: [Int32] = [], heads: [Int32] = [], weights: [Double] = [], firsts: [Int32] = [], seconds: [Int32] = []
        var outArcs: [[Int32]], inArcs: [[Int32]]
        var contracted: [Bool]
        var deletedNeighbours: [Int32]
        /// One more than the highest level of a contracted neighbour: how deep the hierarchy under a node is.
        var level: [Int32]
        /// Whether a neighbour was contracted since the node's priority was last taken.
        var changed: [Bool]
        var rank: [Int32]
        var distance: [Double]
        var touched: [Int32] = []
        var heap = MinHeap()

        init(graph: RoadGraph) {
            let count = graph.nodeCount
            outArcs = Array(repeating: [], count: count)
            inArcs = Array(repeating: [], count: count)
            contracted = Array(repeating: false, count: count)
            deletedNeighbours = Array(repeating: 0, count: count)
            level = Array(repeating: 0, count: count)
            changed = Array(repeating: false, count: count)
            rank = Array(repeating: -1, count: count)
            distance = Array(repeating: .infinity, count: count)
            for tail in 0..<count {
                for arc in Int(graph.firstOut[tail])..<Int(graph.firstOut[tail + 1]) {
                    tails.append(Int32(tail)); heads.append(graph.arcHead[arc]); weights.append(graph.arcWeight[arc])
                    firsts.append(-1); seconds.append(-1)
                    insert(Int32(arc))
                }
            }
        }

        /// Puts arc `arc` into the adjacency lists unless a parallel arc is at least as short; replaces a longer one.
        mutating func insert(_ arc: Int32) {
            let tail = Int(tails[Int(arc)]), head = heads[Int(arc)]
            guard tail != Int(head) else { return }
            if let slot = outArcs[tail].firstIndex(where: { heads[Int($0)] == head }) {
                let existing = outArcs[tail][slot]
                guard weights[Int(arc)] < weights[Int(existing)] else { return }
                outArcs[tail][slot] = arc
                let inSlot = inArcs[Int(head)].firstIndex(of: existing)!
                inArcs[Int(head)][inSlot] = arc
            } else {
                outArcs[tail].append(arc)
                inArcs[Int(head)].append(arc)
            }
        }

        /// The (in-arc, out-arc) pairs around `node` that need a shortcut.
        mutating func shortcuts(around node: Int, settleLimit: Int) -> [(Int32, Int32)] {
            var needed: [(Int32, Int32)] = []
            for incoming in inArcs[node] {
                let source = tails[Int(incoming)]
                let outgoing = outArcs[node].filter { heads[Int($0)] != source }
                guard let limit = outgoing.map({ weights[Int(incoming)] + weights[Int($0)] }).max() else { continue }
                witnessSearch(from: Int(source), avoiding: node, targets: outgoing.map { heads[Int($0)] }, limit: limit, settleLimit: settleLimit)
                for arc in outgoing where distance[Int(heads[Int(arc)])] > weights[Int(incoming)] + weights[Int(arc)] {
                    needed.append((incoming, arc))
                }
            }
            return needed
        }

        /// Dijkstra from `source` over the remaining nodes except `avoiding`, until every target is settled or
        /// past `limit` seconds or `settleLimit` settled nodes; leaves its distances (upper bounds where it
        /// stopped early) in `distance`.
        mutating func witnessSearch(from source: Int, avoiding: Int, targets: [Int32], limit: Double, settleLimit: Int) {
            for node in touched { distance[Int(node)] = .infinity }
            touched.removeAll(keepingCapacity: true)
            heap.removeAll()
            distance[source] = 0
            touched.append(Int32(source))
            heap.push(0, Int32(source))
            var settled = 0, unsettledTargets = targets.count
            while unsettledTargets > 0, let top = heap.pop(), top.key <= limit, settled < settleLimit {
                let (key, node) = (top.key, top.node)
                guard key == distance[Int(node)] else { continue }
                settled += 1
                if targets.contains(node) { unsettledTargets -= 1 }
                for arc in outArcs[Int(node)] {
                    let head = Int(heads[Int(arc)])
                    guard head != avoiding else { continue }
                    let candidate = key + weights[Int(arc)]
                    if candidate < distance[head] {
                        if distance[head] == .infinity { touched.append(Int32(head)) }
                        distance[head] = candidate
                        heap.push(candidate, Int32(head))
                    }
                }
            }
        }

        mutating func priority(of node: Int) -> Double {
            let added = shortcuts(around: node, settleLimit: ContractionHierarchy.simulationSettleLimit).count
            return 2 * Double(added - inArcs[node].count - outArcs[node].count) + Double(deletedNeighbours[node]) + Double(level[node])
        }

        mutating func contractAll() {
            var queue = MinHeap()
            var current = [Double](repeating: 0, count: contracted.count)
            for node in contracted.indices {
                current[node] = priority(of: node)
                queue.push(current[node], Int32(node))
            }
            var order: Int32 = 0
            while let top = queue.pop() {
                let (key, node) = (top.key, Int(top.node))
                guard !contracted[node], key == current[node] else { continue }
                // Only a node whose neighbourhood changed since its priority was taken needs it again.
                if changed[node] {
                    changed[node] = false
                    let fresh = priority(of: node)
                    if fresh > queue.minKey {
                        current[node] = fresh
                        queue.push(fresh, Int32(node))
                        continue
                    }
                }
                contract(node)
                rank[node] = order
                order += 1
            }
        }

        mutating func contract(_ node: Int) {
            for (incoming, outgoing) in shortcuts(around: node, settleLimit: ContractionHierarchy.witnessSettleLimit) {
                let arc = Int32(tails.count)
                tails.append(tails[Int(incoming)]); heads.append(heads[Int(outgoing)])
                weights.append(weights[Int(incoming)] + weights[Int(outgoing)])
                firsts.append(incoming); seconds.append(outgoing)
                insert(arc)
            }
            contracted[node] = true
            var neighbours = Set<Int32>()
            for arc in inArcs[node] {
                let tail = Int(tails[Int(arc)])
                outArcs[tail].removeAll { $0 == arc }
                neighbours.insert(Int32(tail))
            }
            for arc in outArcs[node] {
                let head = Int(heads[Int(arc)])
                inArcs[head].removeAll { $0 == arc }
                neighbours.insert(Int32(head))
            }
            for neighbour in neighbours {
                deletedNeighbours[Int(neighbour)] += 1
                changed[Int(neighbour)] = true
                level[Int(neighbour)] = max(level[Int(neighbour)], level[node] + 1)
            }
            inArcs[node] = []
            outArcs[node] = []
        }
    }
}
