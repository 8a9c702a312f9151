import Foundation
import GeoCore
import SQLiteKit
import Testing
@testable import LiveMap

@Suite("Blocks, removed people and time in the rule")
struct AccountAndBlockTests {
    static let t0 = StoreConformance.t0

    /// `nextChange` against a brute-force model: on random facts, the visibility is the same at every probe
    /// before the instant it names, and different at it; with no instant, the same at every probe.
    @Test(arguments: 1...4)
    func theRulesNextChangeIsWhereVisibilityFlips(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let hours = Double(random.next() % 60) - 10
            let ghost: GhostMode = [.off, .untilTurnedOff, .timed(hours: 3, until: Self.t0.addingTimeInterval(Double(random.next() % 20_000) - 5000))][Int(random.next() % 3)]
            let facts = try RuleAndServiceTests.facts(viewerAsked: random.next() % 8 != 0, blocked: random.next() % 8 == 0, ghost: ghost,
                                                      fixAge: random.next() % 10 == 0 ? nil : hours * 3600 + Double(random.next() % 3600))
            let now = Self.t0
            let visible = VisibilityRule.isVisible(facts, at: now)
            let next = VisibilityRule.nextChange(facts, after: now)
            let horizon = next ?? now.addingTimeInterval(3 * 86400)
            let probes = (0..<200).map { now.addingTimeInterval(horizon.timeIntervalSince(now) * Double($0) / 200) } + [horizon.addingTimeInterval(-0.001)]
            for probe in probes where probe < horizon {
                #expect(VisibilityRule.isVisible(facts, at: probe) == visible, "no change before the instant named (\(probe))")
            }
            if let next { #expect(VisibilityRule.isVisible(facts, at: next) != visible, "the instant named changes it") }
        }
    }

    /// Everything one can do about an id (ask, block, unblock, unfriend) answers a person who blocked you exactly
    /// as an id that does not exist, and changes nothing (both come from one read, `standing`, answering nil).
    @Test func aBlockerIsIndistinguishableFromAnUnknownId() throws {
        let live = LiveMapService(store: try SQLiteLiveStore(path: SQLiteStoreTests.temporaryPath(), synchronous: false))
        for id in ["ann", "eve", "stranger"] { try live.addPerson(id: id, name: id.capitalized) }
        let eve = try PersonID("eve")
        try live.requestFriend(eve, "ann")
        try live.requestFriend(try PersonID("ann"), "eve")
        try live.block(try PersonID("ann"), "eve")
        let before = try live.store.relations(of: eve)
        for action in ["befriend", "unfriend", "block", "unblock"] {
            let blocker = Self.outcome(live, eve, "ann", action), unknown = Self.outcome(live, eve, "ghost", action)
            #expect(blocker == unknown.replacingOccurrences(of: "ghost", with: "ann"), "\(action): \(blocker) against \(unknown)")
        }
        #expect(try live.store.relations(of: eve) == before && live.store.blocked(between: eve, and: PersonID("ann")))
        #expect(try live.store.standing(of: PersonID("ann"), for: eve) == nil)
        try live.block(eve, "stranger")
        #expect(try live.store.blocked(between: eve, and: PersonID("stranger")), "anyone who exists for you can be blocked, friend or not")
        try live.block(try PersonID("ann"), "stranger")
        try live.unblock(try PersonID("ann"), "eve")
        #expect(Self.outcome(live, eve, "ann", "unblock") == Self.outcome(live, eve, "ghost", "unblock").replacingOccurrences(of: "ghost", with: "ann"))
    }

    static func outcome(_ live: LiveMapService, _ me: PersonID, _ other: String, _ action: String) -> String {
        do {
            switch action {
            case "befriend": return "\(try live.requestFriend(me, other))"
            case "unfriend": try live.removeFriend(me, other)
            case "block": try live.block(me, other)
            default: try live.unblock(me, other)
            }
            return "done"
        } catch {
            return "\(error)"
        }
    }

    /// After a person is removed, neither the database file nor its write-ahead log holds a byte of their id, name,
    /// place or Snaps' position, once the change log's removal notice has been pruned.
    @Test func aRemovedPersonLeavesNoByteInTheFile() throws {
        let path = SQLiteStoreTests.temporaryPath()
        let store = try SQLiteLiveStore(path: path)
        let live = LiveMapService(store: store)
        for (id, name) in [("quixote-z", "Zelda Quixotic"), ("sam", "Sam"), ("kim", "Kim")] { try live.addPerson(id: id, name: name) }
        let zelda = try PersonID("quixote-z"), sam = try PersonID("sam")
        try live.requestFriend(zelda, "sam")
        try live.requestFriend(sam, "quixote-z")
        try live.block(try PersonID("kim"), "quixote-z")
        _ = try live.mintToken(for: "quixote-z")
        try live.updateLocation(zelda, fix: LocationFix(lat: 40.7123, lon: -73.9611, accuracyMeters: 5, takenAt: Self.t0, place: "Secret Garden Spot"), now: Self.t0)
        try live.importSnaps([PublicSnap(person: zelda, coordinate: Coordinate(lat: 40.7123, lon: -73.9611), takenAt: Self.t0)], now: Self.t0)
        try live.removePerson("quixote-z")
        try store.pruneChanges(before: Date().addingTimeInterval(60))
        try SQLiteDatabase(path: path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")) { bytes += wal }
        for needle in ["quixote-z", "Zelda Quixotic", "Secret Garden Spot"] {
            #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(needle) is still in the file")
        }
    }

    /// A Snap whose request was signed in before its poster's account was deleted and that reaches the store after the
    /// deletion is not kept, and the glow is never told of it (the server answers it 401).
    @Test func aSnapPostedAcrossTheDeletionIsNotKeptAndTheGlowNeverHearsOfIt() throws {
        let store = try SQLiteLiveStore(path: SQLiteStoreTests.temporaryPath())
        let live = LiveMapService(store: store)
        try live.addPerson(id: "leaver", name: "Leaver")
        let (heard, kept, done) = (Kept(), Kept(), DispatchSemaphore(value: 0))
        live.observeSnaps { _ in heard.set(true) }
        try live.removePerson("leaver")
        try live.postSnap(PublicSnap(person: PersonID("leaver"), coordinate: Coordinate(lat: 40.7123, lon: -73.9611), takenAt: Self.t0), now: Self.t0) { result in
            kept.set(try? result.get())
            done.signal()
        }
        done.wait()
        #expect(kept.value == false && heard.value == nil, "kept: \(String(describing: kept.value)), told: \(String(describing: heard.value))")
        #expect(try store.snaps(since: Self.t0.addingTimeInterval(-60)).isEmpty)
    }
}
