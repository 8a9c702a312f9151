import Foundation
import GeoCore
import LiveMap
import Testing

@Suite("Live Location: the rule's clause and the service")
struct LiveShareTests {
    static let t0 = StoreConformance.t0

    static func share(until seconds: Double, paused: Bool = false) throws -> LiveShare {
        try LiveShare(from: PersonID("bob"), to: PersonID("ann"), startedAt: t0.addingTimeInterval(-60), until: t0.addingTimeInterval(seconds), paused: paused)
    }

    static func facts(_ base: VisibilityFacts, live: LiveShare?) -> VisibilityFacts {
        VisibilityFacts(viewer: base.viewer, person: base.person, viewerAsked: base.viewerAsked, personAsked: base.personAsked,
                        blocked: base.blocked, settings: base.settings, fix: base.fix, live: live)
    }

    @Test func aRunningShareShowsPastGhostModeAndAudienceButNeverPastTheRest() throws {
        let ann = try PersonID("ann")
        let running = try Self.share(until: 600)
        for hidden in [try RuleAndServiceTests.facts(ghost: .untilTurnedOff), try RuleAndServiceTests.facts(audience: .friendsExcept([ann])),
                       try RuleAndServiceTests.facts(ghost: .timed(hours: 3, until: Self.t0.addingTimeInterval(60)), audience: .only([]))] {
            #expect(!VisibilityRule.isVisible(hidden, at: Self.t0))
            #expect(VisibilityRule.isVisible(Self.facts(hidden, live: running), at: Self.t0), "the share shows them")
            #expect(!VisibilityRule.isVisible(Self.facts(hidden, live: running), at: Self.t0.addingTimeInterval(600)), "not from its end on")
            #expect(!VisibilityRule.isVisible(Self.facts(hidden, live: try Self.share(until: 600, paused: true)), at: Self.t0), "nor while paused")
        }
        for never in [try RuleAndServiceTests.facts(personAsked: false), try RuleAndServiceTests.facts(viewerAsked: false),
                      try RuleAndServiceTests.facts(blocked: true), try RuleAndServiceTests.facts(fixAge: nil),
                      try RuleAndServiceTests.facts(fixAge: 24 * 3600), try RuleAndServiceTests.facts(viewer: "bob")] {
            #expect(!VisibilityRule.isVisible(Self.facts(never, live: running), at: Self.t0), "a share never shows past the friendship, a block or the fix's window")
        }
        let visible = Self.facts(try RuleAndServiceTests.facts(), live: running)
        #expect(LiveMapService.visible(Candidate(person: try Person(id: PersonID("bob"), name: "Bob", color: "#000000"), facts: visible,
                                                 details: FriendDetails()), at: Self.t0)?.liveUntil == running.until)
    }

    /// `nextChange` against brute force: for random facts with shares, nothing the map shows (visible, and live) changes
    /// at any sampled instant before the answer, and it changes at the answer.
    @Test func nextChangeIsTheFirstInstantAShareOrAnythingElseFlips() throws {
        var random = SplitMix64(seed: 29)
        var flips = 0
        for _ in 0..<400 {
            let ghost: GhostMode = [.off, .untilTurnedOff, .timed(hours: 3, until: Self.t0.addingTimeInterval(Double(random.next() % 7200)))][Int(random.next() % 3)]
            let base = try RuleAndServiceTests.facts(ghost: ghost, fixAge: Double(random.next() % (25 * 3600)) - 90)
            let live = random.next() % 4 == 0 ? nil : try Self.share(until: Double(random.next() % 30_000) - 600, paused: random.next() % 5 == 0)
            let facts = Self.facts(base, live: live)
            func shown(_ t: Date) -> [Bool] { [VisibilityRule.isVisible(facts, at: t), VisibilityRule.isVisible(facts, at: t) && VisibilityRule.isLive(facts, at: t)] }
            let next = VisibilityRule.nextChange(facts, after: Self.t0)
            let horizon = next ?? Self.t0.addingTimeInterval(30 * 3600)
            let span = horizon.timeIntervalSince(Self.t0)
            for step in 1..<200 { #expect(shown(Self.t0.addingTimeInterval(span * Double(step) / 200)) == shown(Self.t0)) }
            if let next {
                #expect(shown(next) != shown(Self.t0))
                flips += 1
            }
        }
        #expect(flips > 100, "the random facts flip often enough to test")
    }

    @Test func theSharerStartsPausesResumesAndStopsAndOnlyWithFriends() throws {
        let live = LiveMapService(store: try SQLiteLiveStore(path: SQLiteStoreTests.temporaryPath(), synchronous: false))
        let (ann, bob) = (try live.addPerson(id: "ann", name: "Ann").id, try live.addPerson(id: "bob", name: "Bob").id)
        let cat = try live.addPerson(id: "cat", name: "Cat").id
        try live.requestFriend(ann, "bob")
        #expect(throws: LiveMapError.conflict(message: "\"bob\" is not your friend: Live Location is shared with friends only")) {
            try live.startLiveShare(ann, with: "bob", duration: "1h", now: Self.t0)
        }
        try live.requestFriend(bob, "ann")
        #expect(throws: LiveMapError.invalid(field: "duration", message: "must be one of 15m, 1h, 8h; got \"2h\"")) {
            try live.startLiveShare(ann, with: "bob", duration: "2h", now: Self.t0)
        }
        #expect(throws: LiveMapError.self) { try live.startLiveShare(ann, with: "ann", duration: "1h", now: Self.t0) }
        try live.block(cat, "ann")
        #expect(throws: LiveMapError.notFound(id: "cat"), "a blocker answers as an unknown id") { try live.startLiveShare(ann, with: "cat", duration: "1h", now: Self.t0) }
        #expect(throws: LiveMapError.notFound(id: "dan")) { try live.startLiveShare(ann, with: "dan", duration: "1h", now: Self.t0) }
        #expect(try live.liveShares(of: ann, at: Self.t0).isEmpty, "refusals changed nothing")

        let started = try live.startLiveShare(ann, with: "bob", duration: "15m", now: Self.t0)
        #expect(started.until == Self.t0.addingTimeInterval(900) && !started.paused)
        #expect(try live.liveShares(of: bob, at: Self.t0) == [started], "the friend sees it listed")
        let paused = try live.pauseLiveShare(ann, with: "bob", paused: true, now: Self.t0.addingTimeInterval(60))
        #expect(paused == started.with(paused: true), "pausing keeps the end")
        #expect(throws: LiveMapError.noLiveShare(id: "ann"), "only the sharer changes a share") {
            try live.pauseLiveShare(bob, with: "ann", paused: false, now: Self.t0)
        }
        #expect(try live.pauseLiveShare(ann, with: "bob", paused: false, now: Self.t0.addingTimeInterval(120)) == started)
        #expect(throws: LiveMapError.noLiveShare(id: "bob"), "an ended share cannot be resumed") {
            try live.pauseLiveShare(ann, with: "bob", paused: false, now: Self.t0.addingTimeInterval(900))
        }
        #expect(try live.liveShares(of: bob, at: Self.t0.addingTimeInterval(900)).isEmpty, "an ended share is not listed")
        try live.stopLiveShare(ann, with: "bob")
        #expect(throws: LiveMapError.noLiveShare(id: "bob")) { try live.stopLiveShare(ann, with: "bob") }

        try live.startLiveShare(ann, with: "bob", duration: "8h", now: Self.t0)
        try live.startLiveShare(bob, with: "ann", duration: "1h", now: Self.t0)
        try live.removeFriend(bob, "ann")
        #expect(try live.liveShares(of: ann, at: Self.t0).isEmpty, "the friendship's end ends both shares")
        try live.requestFriend(ann, "bob")
        try live.requestFriend(bob, "ann")
        #expect(try live.liveShares(of: ann, at: Self.t0).isEmpty, "and being friends again does not bring them back")
    }
}
