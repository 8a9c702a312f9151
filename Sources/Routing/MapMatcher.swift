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
    /// A fix may be a jump, off by far more than its accuracy (its true road then often not among its candidates):
    /// the likeliest `heldStates` states of the previous fix are kept for it too, "held" where they were, at this
    /// log-likelihood in place of an emission and a transition; the next fix's drive is then reckoned from them
    /// (-3 chosen of -1 … -10 on seeds 33–36 at 20–30 m: -1 was a little better offline but holds a live Dasher
    /// more often; 2 states of 1, 2 and 4).
    public var jumpLogLikelihood = -3.0
    /// How many of the previous fix's likeliest states are held for a possible jump.
    public var heldStates = 2

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
/// chain restarts. A fix may be a jump: the previous fix's likeliest states are also held for it at a fixed
/// likelihood (`MatchParameters.jumpLogLikelihood`); a held match is placed on the drive between its neighbours
/// (live, the fix's own likeliest state is answered while one can follow the chain). A matched junction is reported on the edge the drive takes through it (`named`;
/// live, with no later fix yet, the edge toward the previous match).
public struct MapMatcher {
    /// A 2-D Gaussian's 68% radius in units of its per-axis σ: √(−2 ln 0.32).
    public static let accuracyPerSigma = 1.5096
    public let router: Router
    public let parameters: MatchParameters
    private var side: SearchSide

    /// One fix's states: candidates, the best log-likelihood of a sequence ending in each, and the state of the
    /// previous column it came from (-1 where the chain starts). States from `held` on are previous states held
    /// for a jump, anchored at the previous fix.
    struct Column: Sendable {
        let fix: TraceFix
        let candidates: [RoadPosition]
        let scores: [Double]
        let back: [Int]
        let held: Int
        let heldFix: TraceFix?

        /// The fix whose place `state` stands for.
        func anchor(_ state: Int) -> TraceFix { state >= held ? heldFix ?? fix : fix }

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
        var jumps: [Int] = []
        for end in chainEnds {
            var index = end
            var state = columns[end]!.best!
            while let column = columns[index] {
                matched[index] = column.candidates[state]
                if state >= column.held { jumps.append(index) }
                guard column.back[state] >= 0, links[index] >= 0 else { break }
                state = column.back[state]
                index = links[index]
            }
        }
        // A jump's place is the drive between its neighbours' at its time (the held state is where the Dasher was before).
        var search: RouteSearch?
        for index in jumps where index > 0 && index + 1 < fixes.count {
            guard let earlier = matched[index - 1], let later = matched[index + 1] else { continue }
            var workspace = search ?? RouteSearch(nodeCount: router.graph.nodeCount)
            if let drive = router.route(from: earlier, to: later, search: &workspace) {
                let fraction = (fixes[index].time - fixes[index - 1].time) / max(1e-9, fixes[index + 1].time - fixes[index - 1].time)
                let (leg, offset) = drive.position(at: max(0, min(1, fraction)) * drive.length)
                let point = router.point(leg.edge, at: offset)
                matched[index] = RoadPosition(edge: leg.edge, offset: offset, point: point, distance: RoadGraph.groundDistance(fixes[index].point, point))
            }
            search = workspace
        }
        return matched.indices.map { index in
            guard let position = matched[index] else { return nil }
            return named(position, after: index > 0 ? matched[index - 1] : nil, before: index + 1 < matched.count ? matched[index + 1] : nil)
        }
    }

    /// A matched junction on the street the drive through it takes. A junction is one place for every edge
    /// meeting there, kept on the lowest edge, which may be a cross street the drive never takes: halfway in time
    /// between the neighbouring matches the Dasher was likelier past it (toward the later match) when it is
    /// nearer the earlier one, else still before it; the edge leaving the junction most nearly that way is taken
    /// (of the edges that may be driven out of it: one-way data would want the ways in too).
    private func named(_ position: RoadPosition, after earlier: RoadPosition?, before later: RoadPosition?) -> RoadPosition {
        guard let node = junction(of: position) else { return position }
        let before = earlier.map { RoadGraph.groundDistance($0.point, position.point) } ?? .infinity
        let after = later.map { RoadGraph.groundDistance(position.point, $0.point) } ?? .infinity
        guard let toward = (before < after ? later : earlier) ?? earlier ?? later else { return position }
        let graph = router.graph
        let (dx, dy) = (toward.point.x - position.point.x, toward.point.y - position.point.y)
        var best: (cosine: Double, edge: Int)?
        for arc in Int(graph.firstOut[Int(node)])..<Int(graph.firstOut[Int(node) + 1]) {
            let edge = Int(graph.arcEdge[arc])
            let next = graph.edgeFrom[edge] == node ? graph.points[graph.geometryStart[edge] + 1] : graph.points[graph.geometryStart[edge + 1] - 2]
            let (ex, ey) = (next.x - position.point.x, next.y - position.point.y)
            let cosine = (dx * ex + dy * ey) / ((dx * dx + dy * dy).squareRoot() * (ex * ex + ey * ey).squareRoot())
            if cosine.isFinite, cosine > best?.cosine ?? -.infinity { best = (cosine, edge) }
        }
        guard let edge = best?.edge else { return position }
        let offset = graph.edgeFrom[edge] == node ? 0 : graph.edgeLength[edge]
        return RoadPosition(edge: edge, offset: offset, point: position.point, distance: position.distance)
    }

    /// Adds one fix to `chain` (one Dasher's, kept by the caller) and answers the likeliest road position for it
    /// now; nil (the chain unchanged) when it has no road near it. The answer is the fix's own likeliest state, a
    /// held one only when none of its own can follow the chain: with no later fix to place it between, a held
    /// state would leave the Dasher behind (sparse fixes round a corner hold them as a jump would).
    public mutating func follow(_ fix: TraceFix, chain: inout MatchChain) -> RoadPosition? {
        let column = next(after: chain.latest, fix)
        let own = (0..<column.held).filter { column.scores[$0] > -.infinity }.max { (column.scores[$0], $1) < (column.scores[$1], $0) }
        guard let best = own ?? column.best else { return nil }
        let earlier = column.back[best] >= 0 ? chain.latest?.candidates[column.back[best]] : nil
        chain.latest = column
        return named(column.candidates[best], after: earlier, before: nil)
    }

    /// The column of `fix`, following `previous` (restarting where no state can follow it).
    private mutating func next(after previous: Column?, _ fix: TraceFix) -> Column {
        let candidates = distinctPlaces(router.index.candidates(near: fix.point, radius: parameters.searchRadius, where: { router.routable[$0] }))
        let sigma = max(fix.accuracy / Self.accuracyPerSigma, parameters.minimumSigma) * parameters.sigmaScale
        let emissions = candidates.map { -0.5 * ($0.distance / sigma) * ($0.distance / sigma) }
        var scores = Array(repeating: -Double.infinity, count: candidates.count)
        var back = Array(repeating: -1, count: candidates.count)
        if let previous, !candidates.isEmpty {
            let farthest = candidates.map(\.distance).max() ?? 0
            // Ground metres per mercator metre here: the states are at most a few hundred metres apart.
            let scale = RoadGraph.groundScale(atY: fix.point.y)
            for (state, start) in previous.candidates.enumerated() where previous.scores[state] > -.infinity {
                let anchor = previous.anchor(state)
                let noise = (anchor.accuracy * anchor.accuracy + fix.accuracy * fix.accuracy).squareRoot() / Self.accuracyPerSigma
                // Noise lengthens the line between two fixes on average (its square by twice the per-axis variance):
                // the raw line would reward drives longer than the true one, detours included.
                let measured = RoadGraph.groundDistance(anchor.point, fix.point)
                let straight = max(0, measured * measured - 2 * noise * noise).squareRoot()
                let beta = max(parameters.beta, parameters.betaPerNoise * noise)
                let speedLimit = max(0, fix.time - anchor.time) * parameters.maxSpeed + 2 * parameters.searchRadius
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
        let reachable = scores.contains { $0 > -.infinity }
        var held = candidates
        if let previous, !candidates.isEmpty {
            let likeliest = (0..<previous.held).filter { previous.scores[$0] > -.infinity }
                .sorted { (previous.scores[$0], $1) > (previous.scores[$1], $0) }.prefix(parameters.heldStates)
            for state in likeliest {
                held.append(previous.candidates[state])
                scores.append(previous.scores[state] + parameters.jumpLogLikelihood)
                back.append(state)
            }
        }
        if !reachable && held.count == candidates.count { scores = emissions }
        return Column(fix: fix, candidates: held, scores: scores, back: back, held: candidates.count, heldFix: previous?.fix)
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

    /// The junction `position` lies on (within a centimetre of an end of its edge), if any.
    private func junction(of position: RoadPosition) -> Int32? {
        if position.offset <= 0.01 { return router.graph.edgeFrom[position.edge] }
        if position.offset >= router.graph.edgeLength[position.edge] - 0.01 { return router.graph.edgeTo[position.edge] }
        return nil
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
