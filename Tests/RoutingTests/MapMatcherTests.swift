import Foundation
import GeoCore
import Routing
import Testing

/// The hidden Markov matcher on synthetic Dasher traces driven along random routes across Brooklyn.
@Suite struct MapMatcherTests {
    /// Random routes of 1–10 km between points of Brooklyn, as a Dasher's drives.
    static func routes(_ router: Router, count: Int, random: inout SplitMix64) -> [Route] {
        var routes: [Route] = []
        while routes.count < count {
            let from = Fixtures.randomCoordinate(&random), to = Fixtures.randomCoordinate(&random)
            guard let route = try? router.route(from: from, to: to), (1_000...10_000).contains(route.length) else { continue }
            routes.append(route)
        }
        return routes
    }

    /// Whether a match is on the road the Dasher was on: on the same named street (one street is split into an
    /// edge per block, and a divided avenue is two parallel lines the sources cannot tell apart, having no one-way
    /// tags), within 50 m of where they were; or, for a street with no name, on the same edge or one passing within
    /// 3 m of where they were (at a junction both edges are right).
    static func isRight(_ match: RoadPosition?, truth: SimulatedDrive.Truth, router: Router) -> Bool {
        guard let match else { return false }
        let graph = router.graph
        let name = graph.streetNames[Int(graph.edgeStreet[truth.edge])]
        if !name.isEmpty, graph.streetNames[Int(graph.edgeStreet[match.edge])] == name {
            return RoadGraph.groundDistance(match.point, truth.point) <= 50
        }
        return match.edge == truth.edge || router.index.candidates(near: truth.point, radius: 3).contains { $0.edge == match.edge }
    }

    /// The strict measure: the very edge (a block of one street), or one passing within 3 m of the truth.
    static func isSameEdge(_ match: RoadPosition?, truth: SimulatedDrive.Truth, router: Router) -> Bool {
        guard let match else { return false }
        return match.edge == truth.edge || router.index.candidates(near: truth.point, radius: 3).contains { $0.edge == match.edge }
    }

    /// Share of fixes matched right on 12 seeded routes, a fix every 5 s, 2% of them jumps, each trace's accuracy
    /// (the phone's 68% radius) drawn from `accuracies`; with the share the strict edge measure and the nearest
    /// road (no model) get.
    static func shares(accuracies: ClosedRange<Double>, seed: UInt64, parameters: MatchParameters = MatchParameters()) throws -> (right: Double, sameEdge: Double, nearest: Double, fixes: Int) {
        let router = try Fixtures.router.get()
        var random = SplitMix64(seed: seed)
        var matcher = MapMatcher(router: router, parameters: parameters)
        var right = 0, sameEdge = 0, nearest = 0, total = 0
        for route in Self.routes(router, count: 12, random: &random) {
            let accuracy = accuracies.lowerBound + random.unit() * (accuracies.upperBound - accuracies.lowerBound)
            let trace = SimulatedDrive(route: route, router: router, interval: 5, accuracy: accuracy, jumpChance: 0.02, random: &random)
            for (index, match) in matcher.match(trace.fixes).enumerated() {
                let truth = trace.truth[index]
                total += 1
                if Self.isRight(match, truth: truth, router: router) { right += 1 }
                if Self.isSameEdge(match, truth: truth, router: router) { sameEdge += 1 }
                if Self.isRight(router.index.nearest(to: trace.fixes[index].point, radius: 100), truth: truth, router: router) { nearest += 1 }
            }
        }
        let fixes = Double(total)
        return (Double(right) / fixes, Double(sameEdge) / fixes, Double(nearest) / fixes, total)
    }

    @Test func theMatchedRoadIsRightForAtLeast95PercentOfFixesUpTo20Metres() throws {
        let result = try Self.shares(accuracies: 5...20, seed: 31)
        #expect(result.fixes >= 600)
        #expect(result.right >= 0.95, "\(result)")
        #expect(result.right > result.nearest, "the model beats the nearest road: \(result)")
    }

    /// Measured, not the goal: at 20–30 m the model gets 92.8% on this seed (94% on four others; the nearest road
    /// 77%); see the README.
    @Test func theMatchedRoadIsRightForMostFixesAt20To30Metres() throws {
        let result = try Self.shares(accuracies: 20...30, seed: 32)
        #expect(result.right >= 0.91, "\(result)")
        #expect(result.right > result.nearest + 0.03, "the model beats the nearest road: \(result)")
    }

    @Test func fixesOnTheRoadWithoutNoiseMatchTheirOwnEdge() throws {
        let router = try Fixtures.router.get()
        var random = SplitMix64(seed: 5)
        var matcher = MapMatcher(router: router)
        for route in Self.routes(router, count: 3, random: &random) {
            let trace = SimulatedDrive(route: route, router: router, interval: 4, accuracy: 0, jumpChance: 0, random: &random)
            let matched = matcher.match(trace.fixes)
            for (match, truth) in zip(matched, trace.truth) {
                #expect(Self.isRight(match, truth: truth, router: router))
                // On its own edge, or at most a metre off: on a turn the detour term may prefer the junction itself.
                #expect((match?.distance ?? .infinity) <= 1)
            }
        }
    }

    @Test func aFixFarFromEveryRoadIsLeftUnmatchedAndTheChainGoesOn() throws {
        let router = try Fixtures.router.get()
        var random = SplitMix64(seed: 7)
        let route = Self.routes(router, count: 1, random: &random)[0]
        var trace = SimulatedDrive(route: route, router: router, interval: 5, accuracy: 8, jumpChance: 0, random: &random)
        let harbour = WebMercator.projectUnchecked(lat: 40.60, lon: -74.05)
        trace.fixes[3] = TraceFix(point: harbour, time: trace.fixes[3].time, accuracy: 8)
        var matcher = MapMatcher(router: router)
        let matched = matcher.match(trace.fixes)
        #expect(matched[3] == nil)
        let right = zip(matched, trace.truth).enumerated().filter { $0.offset != 3 && Self.isRight($0.element.0, truth: $0.element.1, router: router) }
        #expect(Double(right.count) >= 0.95 * Double(trace.fixes.count - 1))
    }
}
