import GeoCore

/// A GPS fix to match: where (mercator metres), when (seconds on any fixed scale) and the phone's accuracy
/// (metres: the radius of 68% confidence, as phones report it; a 2-D Gaussian's per-axis σ is that / 1.51).
public struct TraceFix: Sendable, Equatable {
    public let point: MercatorPoint
    public let time: Double
    public let accuracy: Double

    public init(point: MercatorPoint, time: Double, accuracy: Double) {
        self.point = point
        self.time = time
        self.accuracy = accuracy
    }
}

/// The matcher's knobs, in ground metres and metres per second.
public struct MatchParameters: Sendable, Equatable {
    /// Road positions farther than this from a fix are not its candidates (a fix with none is left unmatched).
    public var searchRadius = 100.0
    public var maxCandidates = 10
    /// The noise floor of the emission's standard deviation (a phone's accuracy below it is not believed).
    public var minimumSigma = 3.0
    /// The emission's σ is the fix's, widened by this: a model a little wider than the noise trusts the
    /// drive between fixes more (1.5 measured best of 1, 1.5 and 2 on traces of other seeds than the tests').
    public var sigmaScale = 1.5
    /// The scale of the transition's exponential: how far a drive may differ from the straight line between fixes.
    public var beta = 8.0
    /// No drive between fixes is faster than this: farther candidates cannot follow one another.
    public var maxSpeed = 30.0
    /// What skipping a fix as a jump costs, in log-likelihood: about −ln of how often a fix jumps.
    public var jumpPenalty = 4.0

    public init() {}
}

/// Map matching by a hidden Markov model (Newson and Krumm, 2009): each fix's hidden state is one of the road
/// positions near it; a state emits the fix with a Gaussian in their distance (σ the fix's accuracy); moving
/// between states costs an exponential in how much the shortest drive between them (by length, honouring
/// one-way streets) differs from the straight line between the fixes. Viterbi picks the likeliest sequence.
/// A fix may also be skipped as a jump (a state may follow the fix before last, at `jumpPenalty`); where no state
/// can follow the previous ones (a long gap) the chain restarts.
public struct MapMatcher {
    public let router: Router
    public let parameters: MatchParameters
    private var side: SearchSide

    /// A 2-D Gaussian's 68% radius in units of its per-axis σ: √(−2 ln 0.32).
    public static let accuracyPerSigma = 1.5096

    public init(router: Router, parameters: MatchParameters = MatchParameters()) {
        self.router = router
        self.parameters = parameters
        side = SearchSide(nodeCount: router.graph.nodeCount)
    }

    /// The matched road position of each fix, in order; nil for a fix with no road within `searchRadius` or one
    /// the likeliest sequence skips as a jump.
    public mutating func match(_ fixes: [TraceFix]) -> [RoadPosition?] {
        var columns: [[RoadPosition]] = []
        var scores: [[Double]] = []
        /// Per state, the column and state it came from (column -1: the chain starts there).
        var back: [[(column: Int, state: Int)]] = []
        var chainEnds: [Int] = []
        var filled: [Int] = []
        for (current, fix) in fixes.enumerated() {
            let candidates = distinctPlaces(router.index.candidates(near: fix.point, radius: parameters.searchRadius, where: { router.routable[$0] }))
            let sigma = max(fix.accuracy / Self.accuracyPerSigma, parameters.minimumSigma) * parameters.sigmaScale
            let emissions = candidates.map { -0.5 * ($0.distance / sigma) * ($0.distance / sigma) }
            var reached = Array(repeating: -Double.infinity, count: candidates.count)
            var from = Array(repeating: (column: -1, state: -1), count: candidates.count)
            // The last column with states, and the one before it, reached by skipping the last as a jump.
            for (step, column) in filled.suffix(2).reversed().enumerated() where !candidates.isEmpty {
                let penalty = step == 0 ? 0 : parameters.jumpPenalty
                let straight = RoadGraph.groundDistance(fixes[column].point, fix.point)
                let limit = max(0, fix.time - fixes[column].time) * parameters.maxSpeed + 2 * parameters.searchRadius
                for (state, start) in columns[column].enumerated() where scores[column][state] > -.infinity {
                    for (index, drive) in driveLengths(from: start, to: candidates, limit: limit).enumerated() where drive.isFinite {
                        let total = scores[column][state] - penalty - abs(drive - straight) / parameters.beta + emissions[index]
                        if total > reached[index] {
                            reached[index] = total
                            from[index] = (column, state)
                        }
                    }
                }
            }
            if !candidates.isEmpty && !reached.contains(where: { $0 > -.infinity }) {
                if let last = filled.last { chainEnds.append(last) }
                reached = emissions
            }
            columns.append(candidates)
            scores.append(reached)
            back.append(from)
            if !candidates.isEmpty { filled.append(current) }
        }
        if let last = filled.last { chainEnds.append(last) }
        var matched = [RoadPosition?](repeating: nil, count: fixes.count)
        for end in chainEnds {
            var step = (column: end, state: scores[end].indices.max { (scores[end][$0], $1) < (scores[end][$1], $0) }!)
            while step.column >= 0 {
                matched[step.column] = columns[step.column][step.state]
                step = back[step.column][step.state]
            }
        }
        return matched
    }

    /// The nearest `maxCandidates` candidates at distinct points: the edges meeting at a junction offer the same
    /// place, and one of them (the lowest edge) stands for it.
    private func distinctPlaces(_ candidates: [RoadPosition]) -> [RoadPosition] {
        var seen = Set<MercatorPoint>()
        var places: [RoadPosition] = []
        for candidate in candidates where places.count < parameters.maxCandidates && seen.insert(candidate.point).inserted {
            places.append(candidate)
        }
        return places
    }

    /// The shortest drive in ground metres from `start` to each of `ends` (infinity past `limit`).
    private mutating func driveLengths(from start: RoadPosition, to ends: [RoadPosition], limit: Double) -> [Double] {
        let graph = router.graph
        let direction = graph.edgeDirection[start.edge], length = graph.edgeLength[start.edge]
        var seeds: [SearchEnd] = []
        if direction.allowsForward { seeds.append(SearchEnd(node: graph.edgeTo[start.edge], cost: length - start.offset)) }
        if direction.allowsBackward { seeds.append(SearchEnd(node: graph.edgeFrom[start.edge], cost: start.offset)) }
        side.reset(seeds: seeds)
        while side.heap.minKey <= limit, let (node, cost) = side.settleNext() {
            for arc in Int(graph.firstOut[Int(node)])..<Int(graph.firstOut[Int(node) + 1]) {
                side.reach(graph.arcHead[arc], cost: cost + graph.edgeLength[Int(graph.arcEdge[arc])], by: Int32(arc))
            }
        }
        return ends.map { end in
            let edgeDirection = graph.edgeDirection[end.edge]
            var best = Double.infinity
            if end.edge == start.edge {
                if end.offset >= start.offset ? direction.allowsForward : direction.allowsBackward { best = abs(end.offset - start.offset) }
            }
            if edgeDirection.allowsForward { best = min(best, side.distance[Int(graph.edgeFrom[end.edge])] + end.offset) }
            if edgeDirection.allowsBackward { best = min(best, side.distance[Int(graph.edgeTo[end.edge])] + graph.edgeLength[end.edge] - end.offset) }
            return best <= limit ? best : .infinity
        }
    }
}
