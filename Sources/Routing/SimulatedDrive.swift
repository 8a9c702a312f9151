import Foundation
import GeoCore

/// A simulated Dasher driving a route at its streets' speeds times `pace`, their phone reporting a fix every `interval`
/// seconds with seeded Gaussian noise whose 68% radius is `accuracy` metres (what the phone reports) and, now and
/// then, a jump of 80–250 m; with where they truly were and how far they still had to drive. Seeded: the same
/// generator state gives the same drive (the tests' traces, the benchmark's and the demo's Dasher).
public struct SimulatedDrive: Sendable {
    /// Where the Dasher truly was at a fix: the edge, the point and the metres of the route still ahead.
    public struct Truth: Sendable, Equatable {
        public let edge: Int
        public let point: MercatorPoint
        public let remaining: Double
    }

    /// The phone's fixes, and where the Dasher truly was at each.
    public var fixes: [TraceFix] = []
    public var truth: [Truth] = []

    /// Drives `route` from its start, a fix at time 0 and every `interval` seconds until home.
    public init(route: Route, router: Router, interval: Double, accuracy: Double, jumpChance: Double, pace: Double = 1,
         random: inout SplitMix64) {
        let sigma = accuracy / MapMatcher.accuracyPerSigma
        let graph = router.graph
        var legStart = 0.0, driven = 0.0, time = 0.0
        for leg in route.legs {
            let seconds = graph.edgeLength[leg.edge] > 0 ? pace * leg.length * graph.edgeTime[leg.edge] / graph.edgeLength[leg.edge] : 0
            while time <= legStart + seconds {
                let metres = seconds > 0 ? (time - legStart) / seconds * leg.length : 0
                let point = router.point(leg.edge, at: leg.offset(after: metres))
                var (dx, dy) = (Self.gaussian(&random) * sigma, Self.gaussian(&random) * sigma)
                if random.unit() < jumpChance {
                    let angle = random.unit() * 2 * Double.pi, distance = 80 + random.unit() * 170
                    dx += cos(angle) * distance
                    dy += sin(angle) * distance
                }
                let scale = RoadGraph.groundScale(atY: point.y)
                fixes.append(TraceFix(point: MercatorPoint(x: point.x + dx / scale, y: point.y + dy / scale), time: time, accuracy: accuracy))
                truth.append(Truth(edge: leg.edge, point: point, remaining: route.length - driven - metres))
                time += interval
            }
            legStart += seconds
            driven += leg.length
        }
    }

    /// A standard normal deviate (Box–Muller).
    public static func gaussian(_ random: inout SplitMix64) -> Double {
        let u = max(random.unit(), 1e-300), v = random.unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
