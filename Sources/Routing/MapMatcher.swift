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
    /// At most this many states per fix, nearest first.
    public var maxCandidates = 10
    /// The noise floor of the emission's standard deviation (a phone's accuracy below it is not believed).
    public var minimumSigma = 3.0
    /// The emission's σ is the fix's times this (1 measured best of 0.8, 1, 1.25 and 1.5 on traces of other seeds
    /// than the tests', with the detour term; 1.5 was best without it).
    public var sigmaScale = 1.0
    /// The scale of the transition's exponential: how far a drive may differ from the straight line between fixes.
    public var beta = 8.0
    /// The scale grows with the noise of the straight line between two fixes (their σs combined) times this: noisy
    /// fixes make that line a worse guide (1 measured best of 0, 0.5, 1, 1.5 and 2 on other seeds than the tests').
    public var betaPerNoise = 1.0
    /// The scale of a second exponential, in how much the drive between two states exceeds the straight line
    /// between the states themselves: a drive onto a cross street and back (what noise near a junction suggests)
    /// pays for its detour whatever the fixes' noise (15 measured best of 5, 10, 15, 20 and 30 on other seeds).
    public var detourBeta = 15.0
    /// No drive between fixes is faster than this: farther candidates cannot follow one another.
    public var maxSpeed = 30.0

    public init() {}
}

/// One Dasher's matching so far, for `MapMatcher.follow`: the newest fix's states and their likelihoods.
public struct MatchChain: Sendable {
    var latest: MapMatcher.Column?

    public init() {}
}

/// Map matching by a hidden Markov model (Newson and Krumm, 2009): each fix's hidden state is one of the road
/// positions near it; a state emits the fix with a Gaussian in their distance (σ from the fix's accuracy); moving
/// between states costs an exponential in how much the shortest drive between them (by length, honouring
/// one-way streets) differs from the straight line between the fixes (its length less the fixes' noise), and a
/// second in how much that drive exceeds the straight line between the states (its detour). `match` runs
/// Viterbi over a whole trace; `follow` takes one fix at a time and answers the likeliest state of the newest fix
/// (what a live order shows). Where no state can follow the previous ones (a long gap, a jump off the network) the
/// chain restarts.
public struct MapMatcher {
    /// A 2-D Gaussian's 68% radius in units of its per-axis σ: √(−2 ln 0.32).
    public static let accuracyPerSigma = 1.5096
    public let router: Router
    public let parameters: MatchParameters
    private var side: SearchSide

    /// One fix's states: candidates, the best log-likelihood of a sequence ending in each, and the state of the
    /// previous column it came from (-1 where the chain starts).
    struct Column: Sendable {
        let fix: TraceFix
        let candidates: [RoadPosition]
        let scores: [Double]
        let back: [Int]

        var best: Int? { scores.indices.max { (scores[$0], $1) < (scores[$1], $0) } }
    }

    /// A matcher on `router`'s network with its own search workspace (one per thread).
    public init(router: Router, parameters: MatchParameters = MatchParameters()) {
        self.router = router
        self.parameters = parameters
        side = SearchSide(nodeCount: router.graph.nodeCount)
    }

    /// The matched road position of each fix, in order; nil for a fix with no road within `searchRadius`.
    public mutating func match(_ fixes: [TraceFix]) -> [RoadPosition?] {
        var columns: [Column?] = []
        var previous: Column?
        var previousIndex = -1
        var chainEnds: [Int] = []
        var links: [Int] = []
        for fix in fixes {
            let column = next(after: previous, fix)
            if !column.candidates.isEmpty {
                if previous != nil && column.back.allSatisfy({ $0 < 0 }) { chainEnds.append(previousIndex) }
                links.append(previousIndex)
                previous = column
                previousIndex = columns.count
            } else {
                links.append(-1)
            }
            columns.append(column.candidates.isEmpty ? nil : column)
        }
        if previousIndex >= 0 { chainEnds.append(previousIndex) }
        var matched = [RoadPosition?](repeating: nil, count: fixes.count)
        for end in chainEnds {
            var index = end
            var state = columns[end]!.best!
            while let column = columns[index] {
                matched[index] = column.candidates[state]
                guard column.back[state] >= 0, links[index] >= 0 else { break }
                state = column.back[state]
                index = links[index]
            }
        }
        return matched
    }

    /// Adds one fix to `chain` (one Dasher's, kept by the caller) and answers the likeliest road position for it
    /// now; nil (the chain unchanged) when it has no road near it.
    public mutating func follow(_ fix: TraceFix, chain: inout MatchChain) -> RoadPosition? {
        let column = next(after: chain.latest, fix)
        guard let best = column.best else { return nil }
        chain.latest = column
        return column.candidates[best]
    }

    /// The column of `fix`, following `previous` (restarting where no state can follow it).
    private mutating func next(after previous: Column?, _ fix: TraceFix) -> Column {
        let candidates = distinctPlaces(router.index.candidates(near: fix.point, radius: parameters.searchRadius, where: { router.routable[$0] }))
        let sigma = max(fix.accuracy / Self.accuracyPerSigma, parameters.minimumSigma) * parameters.sigmaScale
        let emissions = candidates.map { -0.5 * ($0.distance / sigma) * ($0.distance / sigma) }
        var scores = Array(repeating: -Double.infinity, count: candidates.count)
        var back = Array(repeating: -1, count: candidates.count)
        if let previous, !candidates.isEmpty {
            let noise = (previous.fix.accuracy * previous.fix.accuracy + fix.accuracy * fix.accuracy).squareRoot() / Self.accuracyPerSigma
            // Noise lengthens the line between two fixes on average (its square by twice the per-axis variance): the
            // raw line would reward drives longer than the true one, detours included.
            let measured = RoadGraph.groundDistance(previous.fix.point, fix.point)
            let straight = max(0, measured * measured - 2 * noise * noise).squareRoot()
            let beta = max(parameters.beta, parameters.betaPerNoise * noise)
            let farthest = candidates.map(\.distance).max() ?? 0
            let speedLimit = max(0, fix.time - previous.fix.time) * parameters.maxSpeed + 2 * parameters.searchRadius
            // Ground metres per mercator metre here: the states are at most a few hundred metres apart.
            let scale = RoadGraph.groundScale(atY: fix.point.y)
            for (state, start) in previous.candidates.enumerated() where previous.scores[state] > -.infinity {
                // Drives longer than this cost more than e^-10 against the straight line: not worth searching.
                let limit = min(speedLimit, straight + start.distance + farthest + 10 * beta)
                for (index, drive) in driveLengths(from: start, to: candidates, limit: limit).enumerated() where drive.isFinite {
                    let (dx, dy) = (candidates[index].point.x - start.point.x, candidates[index].point.y - start.point.y)
                    let detour = drive - (dx * dx + dy * dy).squareRoot() * scale
                    let total = previous.scores[state] - abs(drive - straight) / beta - detour / parameters.detourBeta + emissions[index]
                    if total > scores[index] {
                        scores[index] = total
                        back[index] = state
                    }
                }
            }
        }
        if !scores.contains(where: { $0 > -.infinity }) { scores = emissions }
        return Column(fix: fix, candidates: candidates, scores: scores, back: back)
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
