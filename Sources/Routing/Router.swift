import GeoCore

/// Routes between places on the street network: snaps each end to the nearest street that belongs to a large
/// connected part of the network (not a fragment cut off in a park), then asks the contraction hierarchy for
/// the fastest drive. `referenceRoute` answers the same question with plain Dijkstra.
public struct Router: Sendable {
    /// How far an end may be from a street, in ground metres.
    public static let snapRadius = 500.0
    /// A connected part of the network with fewer junctions than this share of all of them is not snapped to.
    public static let minimumComponentShare = 0.01
    public let graph: RoadGraph
    public let hierarchy: ContractionHierarchy
    public let index: EdgeIndex
    /// Per edge: whether it lies in a connected part large enough to snap to.
    public let routable: [Bool]

    /// Builds the hierarchy and the index of `graph` (the preprocessing the benchmark times).
    public init(graph: RoadGraph) {
        self.graph = graph
        hierarchy = ContractionHierarchy(graph: graph)
        index = EdgeIndex(graph: graph)
        var parent = Array(0..<graph.nodeCount)
        func root(_ node: Int) -> Int {
            var node = node
            while parent[node] != node {
                parent[node] = parent[parent[node]]
                node = parent[node]
            }
            return node
        }
        for edge in 0..<graph.edgeCount {
            let (a, b) = (root(Int(graph.edgeFrom[edge])), root(Int(graph.edgeTo[edge])))
            if a != b { parent[a] = b }
        }
        var size = [Int](repeating: 0, count: graph.nodeCount)
        for node in 0..<graph.nodeCount { size[root(node)] += 1 }
        let minimum = Double(graph.nodeCount) * Self.minimumComponentShare
        routable = (0..<graph.edgeCount).map { Double(size[root(Int(graph.edgeFrom[$0]))]) >= minimum }
    }

    /// The nearest routable street position to `coordinate`; refused naming `field` when none is within `snapRadius`.
    public func position(of coordinate: Coordinate, field: String) throws(BadField) -> RoadPosition {
        let point = WebMercator.projectUnchecked(lat: coordinate.lat, lon: coordinate.lon)
        guard let position = index.nearest(to: point, radius: Self.snapRadius, where: { routable[$0] }) else {
            throw BadField(field: field, message: "is not within \(Int(Self.snapRadius)) m of a street of the network (\(coordinate))")
        }
        return position
    }

    /// The fastest drive between two coordinates, each snapped to its street; refused naming the end that is
    /// off the network, or when no street connects them.
    public func route(from start: Coordinate, to end: Coordinate) throws(BadField) -> Route {
        var search = RouteSearch(nodeCount: graph.nodeCount)
        guard let route = route(from: try position(of: start, field: "from"), to: try position(of: end, field: "to"), search: &search) else {
            throw BadField(field: "to", message: "cannot be reached by street from \(start) (\(end))")
        }
        return route
    }

    /// The fastest drive between two road positions by the hierarchy, or nil when none connects them.
    public func route(from start: RoadPosition, to end: RoadPosition, search: inout RouteSearch) -> Route? {
        let (sources, targets) = ends(start, end)
        return assemble(start, end, path: search.shortest(in: hierarchy, from: sources, to: targets))
    }

    /// The same answer by plain Dijkstra on the graph, for checking and as the benchmark's anchor.
    public func referenceRoute(from start: RoadPosition, to end: RoadPosition) -> Route? {
        let (sources, targets) = ends(start, end)
        return assemble(start, end, path: Dijkstra.shortest(in: graph, from: sources, to: targets))
    }

    /// The rest of `route` from `position` when that lies on the route (on one of its legs, at or past the leg's
    /// start): a piece of a fastest drive is itself a fastest drive, so this answers what `route(from:to:)` from
    /// `position` would (the same time, up to ties and rounding) without a search; nil when `position` is off it.
    public func rest(of route: Route, from position: RoadPosition) -> Route? {
        guard let index = route.legs.firstIndex(where: { leg in
            leg.edge == position.edge && (min(leg.from, leg.to)...max(leg.from, leg.to)).contains(position.offset)
        }) else { return nil }
        let legs = [RouteLeg(edge: position.edge, from: position.offset, to: route.legs[index].to)] + route.legs[(index + 1)...]
        var points = piece(legs[0].edge, from: legs[0].from, to: legs[0].to)
        var legStarts = [0]
        if index + 1 < route.legs.count {
            let next = route.legStarts[index + 1], shift = points.count - 1 - next
            legStarts += route.legStarts[(index + 1)...].map { $0 + shift }
            points += route.points[(next + 1)...]
        }
        var length = 0.0, duration = 0.0
        for leg in legs {
            length += leg.length
            duration += time(leg.edge, leg.length)
        }
        return Route(points: points, length: length, duration: duration, arcs: Array(route.arcs[min(index, route.arcs.count)...]), legs: legs,
                     legStarts: legStarts)
    }

    /// Seconds from a position to the junctions at its edge's ends (the ways the edge may be driven), and from
    /// those junctions to the other position.
    func ends(_ start: RoadPosition, _ end: RoadPosition) -> ([SearchEnd], [SearchEnd]) {
        var sources: [SearchEnd] = [], targets: [SearchEnd] = []
        let (a, b) = (start.edge, end.edge)
        if graph.edgeDirection[a].allowsForward { sources.append(SearchEnd(node: graph.edgeTo[a], cost: time(a, graph.edgeLength[a] - start.offset))) }
        if graph.edgeDirection[a].allowsBackward { sources.append(SearchEnd(node: graph.edgeFrom[a], cost: time(a, start.offset))) }
        if graph.edgeDirection[b].allowsForward { targets.append(SearchEnd(node: graph.edgeFrom[b], cost: time(b, end.offset))) }
        if graph.edgeDirection[b].allowsBackward { targets.append(SearchEnd(node: graph.edgeTo[b], cost: time(b, graph.edgeLength[b] - end.offset))) }
        return (sources, targets)
    }

    /// Seconds to drive `metres` of edge `edge`.
    func time(_ edge: Int, _ metres: Double) -> Double {
        graph.edgeLength[edge] > 0 ? graph.edgeTime[edge] * (metres / graph.edgeLength[edge]) : 0
    }

    /// The route along `path`, or along the shared edge when both ends are on one and that is at least as fast.
    private func assemble(_ start: RoadPosition, _ end: RoadPosition, path: SearchPath?) -> Route? {
        if start.edge == end.edge {
            let direction = graph.edgeDirection[start.edge]
            if end.offset >= start.offset ? direction.allowsForward : direction.allowsBackward {
                let cost = time(start.edge, abs(end.offset - start.offset))
                if cost <= path?.cost ?? .infinity {
                    return Route(points: piece(start.edge, from: start.offset, to: end.offset), length: abs(end.offset - start.offset),
                                 duration: cost, arcs: [], legs: [RouteLeg(edge: start.edge, from: start.offset, to: end.offset)], legStarts: [0])
                }
            }
        }
        guard let path else { return nil }
        let (a, b) = (start.edge, end.edge)
        let leave = endOffset(of: a, at: path.source, from: start.offset, leaving: true)
        let arrive = endOffset(of: b, at: path.target, from: end.offset, leaving: false)
        var points = piece(a, from: start.offset, to: leave)
        var length = abs(leave - start.offset) + abs(end.offset - arrive)
        var legs = [RouteLeg(edge: a, from: start.offset, to: leave)]
        var legStarts = [0]
        for arc in path.arcs {
            legStarts.append(points.count - 1)
            let edge = Int(graph.arcEdge[arc])
            let line = graph.geometry(of: edge)
            points += (graph.arcReversed[arc] ? Array(line.reversed()) : Array(line)).dropFirst()
            length += graph.edgeLength[edge]
            legs.append(graph.arcReversed[arc] ? RouteLeg(edge: edge, from: graph.edgeLength[edge], to: 0) : RouteLeg(edge: edge, from: 0, to: graph.edgeLength[edge]))
        }
        legStarts.append(points.count - 1)
        points += piece(b, from: arrive, to: end.offset).dropFirst()
        legs.append(RouteLeg(edge: b, from: arrive, to: end.offset))
        return Route(points: points, length: length, duration: path.cost, arcs: path.arcs, legs: legs, legStarts: legStarts)
    }

    /// The end of `edge` (offset 0 or its length) at junction `node` that the search's cheaper end cost used.
    private func endOffset(of edge: Int, at node: Int32, from offset: Double, leaving: Bool) -> Double {
        let direction = graph.edgeDirection[edge], length = graph.edgeLength[edge]
        var best = (cost: Double.infinity, offset: 0.0)
        if (leaving ? direction.allowsForward : direction.allowsBackward) && node == graph.edgeTo[edge] { best = (length - offset, length) }
        if (leaving ? direction.allowsBackward : direction.allowsForward) && node == graph.edgeFrom[edge] && offset < best.cost { best = (offset, 0) }
        return best.offset
    }

    /// The points of `edge` between two offsets, in the order from `from` to `to`.
    func piece(_ edge: Int, from: Double, to: Double) -> [MercatorPoint] {
        let (low, high) = (min(from, to), max(from, to))
        let range = graph.geometryStart[edge]..<graph.geometryStart[edge + 1]
        var points = [point(edge, at: low)]
        for index in range where graph.along[index] > low && graph.along[index] < high { points.append(graph.points[index]) }
        points.append(point(edge, at: high))
        return from <= to ? points : points.reversed()
    }

    /// The point `offset` ground metres along `edge`.
    public func point(_ edge: Int, at offset: Double) -> MercatorPoint {
        let range = graph.geometryStart[edge]..<graph.geometryStart[edge + 1]
        for index in range.dropLast() where graph.along[index + 1] >= offset {
            let span = graph.along[index + 1] - graph.along[index]
            let t = span > 0 ? max(0, min(1, (offset - graph.along[index]) / span)) : 0
            let (a, b) = (graph.points[index], graph.points[index + 1])
            return MercatorPoint(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))
        }
        return graph.points[range.upperBound - 1]
    }
}
