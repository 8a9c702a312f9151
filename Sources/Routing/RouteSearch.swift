/// Where a search may start or end: a junction and the seconds already spent reaching it (or still needed from it).
public struct SearchEnd: Sendable, Equatable {
    public let node: Int32
    public let cost: Double

    public init(node: Int32, cost: Double) {
        self.node = node
        self.cost = cost
    }
}

/// A shortest path between junctions: its total seconds (end costs included), the graph arcs driven in order,
/// and the ends it left from and arrived at.
public struct SearchPath: Sendable, Equatable {
    public let cost: Double
    public let arcs: [Int]
    public let source: Int32
    public let target: Int32
}

/// One direction of a search: tentative seconds, the arc each node was reached by, and what to reset.
struct SearchSide {
    var distance: [Double]
    var parent: [Int32]
    var touched: [Int32] = []
    var heap = MinHeap()

    init(nodeCount: Int) {
        distance = Array(repeating: .infinity, count: nodeCount)
        parent = Array(repeating: -1, count: nodeCount)
    }

    mutating func reset(seeds: [SearchEnd]) {
        for node in touched {
            distance[Int(node)] = .infinity
            parent[Int(node)] = -1
        }
        touched.removeAll(keepingCapacity: true)
        heap.removeAll()
        for seed in seeds { reach(seed.node, cost: seed.cost, by: -1) }
    }

    mutating func reach(_ node: Int32, cost: Double, by arc: Int32) {
        guard cost < distance[Int(node)] else { return }
        if distance[Int(node)] == .infinity { touched.append(node) }
        distance[Int(node)] = cost
        parent[Int(node)] = arc
        heap.push(cost, node)
    }

    /// The next node to settle and its distance, skipping entries a shorter one replaced.
    mutating func settleNext() -> (node: Int32, cost: Double)? {
        while let top = heap.pop() {
            if top.key == distance[Int(top.node)] { return (top.node, top.key) }
        }
        return nil
    }
}

/// A reusable workspace for queries on a contraction hierarchy: a bidirectional Dijkstra that only climbs in
/// rank from both ends and stops once neither side can still beat the best meeting. Not shared between threads.
public struct RouteSearch {
    var forward: SearchSide
    var backward: SearchSide
    /// Nodes settled by the last query, both sides together.
    public private(set) var settled = 0

    /// A workspace for a graph of `nodeCount` junctions.
    public init(nodeCount: Int) {
        forward = SearchSide(nodeCount: nodeCount)
        backward = SearchSide(nodeCount: nodeCount)
    }

    /// The fastest path from any source to any target, or nil when none connects them.
    public mutating func shortest(in hierarchy: ContractionHierarchy, from sources: [SearchEnd], to targets: [SearchEnd]) -> SearchPath? {
        forward.reset(seeds: sources)
        backward.reset(seeds: targets)
        settled = 0
        var best = Double.infinity
        var meeting: Int32 = -1
        while min(forward.heap.minKey, backward.heap.minKey) < best {
            let isForward = forward.heap.minKey <= backward.heap.minKey
            guard let (node, cost) = isForward ? forward.settleNext() : backward.settleNext() else { continue }
            settled += 1
            let other = isForward ? backward.distance[Int(node)] : forward.distance[Int(node)]
            if cost + other < best {
                best = cost + other
                meeting = node
            }
            if isForward {
                for slot in Int(hierarchy.upStart[Int(node)])..<Int(hierarchy.upStart[Int(node) + 1]) {
                    let arc = hierarchy.upArcs[slot]
                    forward.reach(hierarchy.arcHead[Int(arc)], cost: cost + hierarchy.arcWeight[Int(arc)], by: arc)
                }
            } else {
                for slot in Int(hierarchy.downStart[Int(node)])..<Int(hierarchy.downStart[Int(node) + 1]) {
                    let arc = hierarchy.downArcs[slot]
                    backward.reach(hierarchy.arcTail[Int(arc)], cost: cost + hierarchy.arcWeight[Int(arc)], by: arc)
                }
            }
        }
        guard meeting >= 0 else { return nil }
        var climb: [Int32] = []
        var source = meeting
        while forward.parent[Int(source)] >= 0 {
            climb.append(forward.parent[Int(source)])
            source = hierarchy.arcTail[Int(forward.parent[Int(source)])]
        }
        var arcs: [Int] = []
        for arc in climb.reversed() { hierarchy.unpack(arc, into: &arcs) }
        var target = meeting
        while backward.parent[Int(target)] >= 0 {
            hierarchy.unpack(backward.parent[Int(target)], into: &arcs)
            target = hierarchy.arcHead[Int(backward.parent[Int(target)])]
        }
        return SearchPath(cost: best, arcs: arcs, source: source, target: target)
    }
}

/// Plain Dijkstra on the graph itself: the reference the hierarchy is checked against, and the benchmark's anchor.
public enum Dijkstra {
    /// The fastest path from any source to any target, or nil; `settled` counts the nodes it settled.
    public static func shortest(in graph: RoadGraph, from sources: [SearchEnd], to targets: [SearchEnd]) -> SearchPath? {
        var side = SearchSide(nodeCount: graph.nodeCount)
        side.reset(seeds: sources)
        var targetCost: [Int32: Double] = [:]
        for target in targets { targetCost[target.node] = min(targetCost[target.node] ?? .infinity, target.cost) }
        var best = Double.infinity
        var arrival: Int32 = -1
        while side.heap.minKey < best, let (node, cost) = side.settleNext() {
            if let remaining = targetCost[node], cost + remaining < best {
                best = cost + remaining
                arrival = node
            }
            for arc in Int(graph.firstOut[Int(node)])..<Int(graph.firstOut[Int(node) + 1]) {
                side.reach(graph.arcHead[arc], cost: cost + graph.arcWeight[arc], by: Int32(arc))
            }
        }
        guard arrival >= 0 else { return nil }
        var arcs: [Int] = []
        var source = arrival
        while side.parent[Int(source)] >= 0 {
            let arc = Int(side.parent[Int(source)])
            arcs.append(arc)
            source = graph.arcTail(arc)
        }
        return SearchPath(cost: best, arcs: arcs.reversed(), source: source, target: arrival)
    }
}
