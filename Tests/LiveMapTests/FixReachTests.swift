import Foundation
import GeoCore
@testable import LiveMap
import Testing

/// A kept fix is told by slots (`LiveView.fixReach`) without building the askers' candidates; the reference is the
/// rule every other change goes through (`reached`, the change applied, `viewersToTell`), asked on the same view in
/// random worlds: friendships one-sided and mutual, blocks, Ghost timers, audiences, Live Location shares running,
/// paused and ended, and fixes older, newer, stale, current and ahead of the clock, at random clock times.
@Suite("Fix reach")
struct FixReachTests {
    @Test(arguments: [3 as UInt64, 28, 91])
    func aFixTellsWhomTheRuleForAnyChangeTells(seed: UInt64) throws {
        let view = LiveView(store: try SQLiteLiveStore(path: SQLiteStoreTests.temporaryPath(), synchronous: false))
        try view.load()
        let live = LiveMapService(store: view)
        let ids = (0..<14).map { "p\($0)" }
        var random = SplitMix64(seed: seed)
        let t0 = LiveViewTests.t0
        for id in ids {
            try live.addPerson(id: id, name: "Person \(id)")
            try live.setSharing(PersonID(trusted: id), ghost: "off", audience: nil, now: t0)
        }
        let pick = { (random: inout SplitMix64) in ids[Int(random.next() % UInt64(ids.count))] }
        var (told, untold) = (0, 0)
        for step in 0..<300 {
            let now = t0.addingTimeInterval(Double(step) * 30)
            let (a, b) = (pick(&random), pick(&random))
            try RandomLiveChange.make(by: live, a, b, random: &random, now: now, listedMost: 5, other: pick)
            if random.next() % 4 == 0 {
                let duration = ["15m", "1h"][Int(random.next() % 2)]
                if (try? live.startLiveShare(PersonID(trusted: a), with: b, duration: duration, now: now.addingTimeInterval(-Double(random.next() % 4000)))) != nil,
                   random.next() % 3 == 0 {
                    _ = try? live.pauseLiveShare(PersonID(trusted: a), with: b, paused: true, now: now)
                }
            }
            let mover = PersonID(trusted: pick(&random))
            let leads: [Double] = [-25 * 3600, -23 * 3600, -600, -5, 0, 30, 90]
            let lead = leads[Int(random.next() % 7)]
            let fix = try LocationFix(lat: 40.71, lon: -73.96 + random.unit() / 100, accuracyMeters: 5, takenAt: now.addingTimeInterval(lead))
            let laters: [Double] = [0, 60, 3 * 3600 + 1, 24 * 3600]
            let at = now.addingTimeInterval(laters[Int(random.next() % 4)])
            let (fast, reference) = view.refreshLock.withLock { () -> (LiveView.FixReach?, [PersonID]) in
                let fast = view.stateLock.read { view.fixReach(mover, keeping: fix, at: at) }
                let reached = view.reached(by: .person(mover))
                view.stateLock.write {
                    guard let slot = view.state.slots[mover] else { return }
                    if view.state.fixes[Int(slot)].map({ $0.takenAt < fix.takenAt }) ?? true { view.state.fixes[Int(slot)] = fix }
                }
                return (fast, view.viewersToTell(.person(mover), reached: reached, at: at))
            }
            guard let reach = fast else {
                #expect(view.stateLock.read { view.state.slots[mover] } == nil, "step \(step): only someone not held has no reach")
                continue
            }
            #expect(Set(reach.told) == Set(reference), "step \(step): \(mover)'s fix at \(lead) s, asked at \(at.timeIntervalSince(now)) s")
            #expect(reach.told.count == Set(reach.told).count, "step \(step): no one is told twice")
            told += reference.count - 1
            untold += view.stateLock.read { view.state.askedBy[Int(reach.slot)].count } - (reference.count - 1)
        }
        #expect(told > 50 && untold > 50, "the random world's fixes reach some askers and not others (\(told), \(untold))")
    }
}
