import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import PinLayout

/// A viewer's layout with Actionmoji poses against the same layout without them, in the same run: a viewer with 200
/// friends on SQLite, read (`friendsUntil`: the rule, the poses and when they change) and laid out at the scene's
/// viewport. In one world nobody sends an activity or sets a birthday; in the other every friend does (drivers,
/// flyers, sleepers, birthdays, walkers, a fifth each). Rounds alternate between the worlds; the goal is within 5%.
enum PosesBenchmark {
    static let friends = 200
    static let goal = 1.05
    /// Rounds timed, and runs per world in a round: the median of 51 ratios moves by well under the 5% it judges.
    static let rounds = 51
    static let repeats = 5

    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let now = ISO8601DateFormatter().date(from: "2026-11-30T06:30:00Z")!
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-bench-poses-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (plain, posed) = (try world(posed: false, now: now, directory: directory), try world(posed: true, now: now, directory: directory))
        let viewer = try PersonID("viewer")
        let viewport = engine.scene.viewport
        // Every answer is timed at its own clock reading, 1 ms after the last, as a server reads its clock per
        // request: a cache of one reading's calendar facts cannot make the posed world look cheaper than it is.
        var elapsed = 0.0
        func reading() -> Date {
            elapsed += 0.001
            return now.addingTimeInterval(elapsed)
        }
        func answer(_ live: LiveMapService) throws -> PinLayoutResult {
            let time = reading()
            return try engine.layout(viewport, friends: try live.friendsUntil(of: viewer, at: time).friends, now: time)
        }
        // Both worlds lay out the same pins; the posed one draws every pose but standing, the plain one none.
        let drawn = (plain: try answer(plain).pins, posed: try answer(posed).pins)
        let posedCounts = Dictionary(grouping: drawn.posed.map(\.pose), by: { $0 }).mapValues(\.count).filter { $0.key != Pose.standing.rawValue }
        guard drawn.plain.count == friends, drawn.posed.count == friends, Set(drawn.plain.map(\.id)) == Set(drawn.posed.map(\.id)),
              drawn.plain.allSatisfy({ $0.pose == Pose.standing.rawValue }), posedCounts.count == 4 else {
            throw LiveMapError.unavailable(message: "the worlds differ: \(drawn.plain.count) and \(drawn.posed.count) pins, poses \(posedCounts)")
        }
        let posedPins = Pose.allCases.compactMap { pose in posedCounts[pose.rawValue].map { "\($0) \(pose.rawValue)" } }.joined(separator: ", ")
        // Each round times both worlds back to back (best of `repeats` CPU times each, the world timed first
        // alternating), so a round's ratio sees one moment's load; the median round is the answer. The whole answer
        // is the goal's figure; the read alone and the layout alone (of the friends read once) say where it goes.
        let seen = (plain: try plain.friendsUntil(of: viewer, at: now).friends, posed: try posed.friendsUntil(of: viewer, at: now).friends)
        let parts: [(plain: () throws -> Void, posed: () throws -> Void)] = [
            ({ _ = try answer(plain) }, { _ = try answer(posed) }),
            ({ _ = try plain.friendsUntil(of: viewer, at: reading()) }, { _ = try posed.friendsUntil(of: viewer, at: reading()) }),
            ({ _ = try engine.layout(viewport, friends: seen.plain, now: reading()) }, { _ = try engine.layout(viewport, friends: seen.posed, now: reading()) }),
        ]
        var rounds = Array(repeating: [(plain: Double, posed: Double)](), count: parts.count)
        func time(_ work: () throws -> Void) throws -> Double { try BenchmarkClock.bestWallAndThreadCPU(of: Self.repeats, work).cpu }
        for round in 0..<Self.rounds {
            for (index, part) in parts.enumerated() {
                if round % 2 == 0 {
                    let plainTime = try time(part.plain)
                    rounds[index].append((plainTime, try time(part.posed)))
                } else {
                    let posedTime = try time(part.posed)
                    rounds[index].append((try time(part.plain), posedTime))
                }
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let ratios = rounds.map { $0.map { $0.posed / $0.plain }.sorted() }
        let (low, high) = (ratios[0][ratios[0].count / 4], ratios[0][ratios[0].count * 3 / 4])
        let (posedTime, plainTime) = (median(rounds[0].map(\.posed)), median(rounds[0].map(\.plain)))
        return "poses: a viewer's \(friends)-friend layout with poses \(BenchmarkClock.format(posedTime * 1000)) ms CPU, without "
            + "\(BenchmarkClock.format(plainTime * 1000)) ms (same run, medians): \(BenchmarkClock.format(median(ratios[0])))× (goal ≤ \(goal)); "
            + "median of \(Self.rounds) rounds of best-of-\(Self.repeats), quartiles \(BenchmarkClock.format(low))–\(BenchmarkClock.format(high))×; "
            + "the read alone \(BenchmarkClock.format(median(ratios[1])))×, the layout alone \(BenchmarkClock.format(median(ratios[2])))×; "
            + "posed pins of \(friends): \(posedPins), each answer at its own clock reading"
    }

    /// The viewer and their friends, each with a fix in the viewport; with `posed`, each friend's activity, speed or birthday.
    static func world(posed: Bool, now: Date, directory: URL) throws -> LiveMapService {
        let live = LiveMapService(store: try SQLiteLiveStore(path: directory.appendingPathComponent(posed ? "posed.db" : "plain.db").path, synchronous: false))
        let viewer = try live.addPerson(id: "viewer", name: "The Viewer").id
        var random = SplitMix64(seed: 29)
        for index in 0..<friends {
            let id = try live.addPerson(id: "f\(index)", name: "Friend \(index)").id
            _ = try live.requestFriend(viewer, id.rawValue)
            _ = try live.requestFriend(id, viewer.rawValue)
            try live.setSharing(id, ghost: "off", audience: nil, now: now)
            let kind = index % 5
            let motion: (Activity?, Double?, TimeInterval) = posed
                ? [(.automotive, 12, 30), (.flying, 240, 60), (.still, 0, 3 * 3600), (nil, nil, 600), (.walking, 1.4, 90)][kind] : (nil, nil, [30, 60, 3 * 3600, 600, 90][kind])
            let fix = try LocationFix(lat: Double.random(in: 40.700...40.728, using: &random), lon: Double.random(in: -73.972 ... -73.930, using: &random),
                                      accuracyMeters: 10, takenAt: now.addingTimeInterval(-motion.2), activity: motion.0, speedMetersPerSecond: motion.1)
            try live.updateLocation(id, fix: fix, now: now)
            if posed && kind == 3 { try live.setBirthday(id, try Birthday(month: 11, day: 30)) }
        }
        return live
    }
}
