import Foundation
import GeoCore
import MapEngine
import MapScene
import Routing

/// Map matching: simulated Dasher fixes (every 5 s, accuracy 5–30 m, 2% jumps) matched a second by the hidden
/// Markov model on one core, a fix at a time as a live order does and whole traces at once (Viterbi), against
/// snapping each fix to its nearest road (no model) in the same run.
enum MatchingBenchmark {
    static func run() throws -> String {
        let paths = DataPaths(dataDirectory: URL(fileURLWithPath: "Data"))
        let router = try Router(streets: paths.loadBaseMap().streets, speedsFile: paths.streetSpeedsFile)
        var random = SplitMix64(seed: 30)
        var traces: [[TraceFix]] = []
        while traces.count < 20 {
            let from = try Coordinate(lat: 40.571 + random.unit() * 0.168, lon: -74.042 + random.unit() * 0.187)
            let to = try Coordinate(lat: 40.571 + random.unit() * 0.168, lon: -74.042 + random.unit() * 0.187)
            guard let route = try? router.route(from: from, to: to), (1_000...10_000).contains(route.length) else { continue }
            traces.append(SimulatedDrive(route: route, router: router, interval: 5, accuracy: 5 + random.unit() * 25, jumpChance: 0.02,
                                         random: &random).fixes)
        }
        let fixCount = Double(traces.reduce(0) { $0 + $1.count })
        var matcher = MapMatcher(router: router)
        var checksum = 0
        let whole = BenchmarkClock.best(of: 3) { for trace in traces { checksum += matcher.match(trace).count } }
        let live = BenchmarkClock.best(of: 3) {
            for trace in traces {
                var chain = MatchChain()
                for fix in trace where matcher.follow(fix, chain: &chain) != nil { checksum += 1 }
            }
        }
        let nearest = BenchmarkClock.best(of: 3) {
            for trace in traces { for fix in trace where router.index.nearest(to: fix.point, radius: 100) != nil { checksum += 1 } }
        }
        precondition(checksum > 0)
        func line(_ name: String, _ seconds: Double) -> String {
            "map matching, \(name), one core: \(Int(fixCount / seconds)) fixes/s (goal ≥ 10,000/s on 2 cores), "
                + "nearest road \(Int(fixCount / nearest)) fixes/s, \(BenchmarkClock.format(nearest / seconds))× its rate"
        }
        return line("a fix at a time as a live order (\(Int(fixCount)) fixes)", live) + "\n" + line("whole traces (Viterbi)", whole)
    }
}
