import Foundation
import LiveMap
import MapEngine
import MapScene
@testable import MapServer
import Testing

/// The per-viewer layout answers against the store path: after every kind of change that reaches a viewer (a
/// friend's move, sharing, blocks, asks, deletion, token revocation; made here or by another process through the
/// change log) and at the rule's instants (a Ghost timer ending, a fix expiring, with nothing written), the next
/// answer from the server that keeps answers is byte for byte the answer of one that reads the store afresh.
@Suite("Layout answers")
struct LayoutAnswersTests {
    /// 40 s past a minute, so that the rule's instants below fall inside minutes, not on their edges.
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000 - 1_795_000_000.truncatingRemainder(dividingBy: 60) + 40)

    /// One store file, served twice: through a view with kept answers, and from the store with none; plus a writer
    /// in the role of another process, heard by the view through the change log.
    final class World: Sendable {
        let cached: MapAPI
        let reference: MapAPI
        let here: LiveMapService
        let elsewhere: LiveMapService
        let feed: SQLiteChangeFeed
        let clock: TestClock
        let viewer = PersonID(trusted: "viewer")
        let token: String

        init() throws {
            let engine = try MapEngine(paths: DataPaths(dataDirectory: InProcessMap.dataDirectory))
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-answers-\(UUID().uuidString).db").path
            let viewStore = try SQLiteLiveStore(path: path, synchronous: false)
            let clock = TestClock(LayoutAnswersTests.t0)
            self.clock = clock
            // The view weighs changes at the server's clock. Its staleness clock stands still, so that a busy machine
            // never turns kept answers off: each write from elsewhere is waited for through the log before the next answer.
            here = LiveMapService(store: LiveView(store: viewStore, clock: { clock.now }, monotonic: { 0 }))
            feed = viewStore.makeChangeFeed()
            here.attach(feed)
            elsewhere = LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false))
            cached = try MapAPI(engine: engine, live: here, clock: { clock.now }, sharesLayers: false)
            reference = try MapAPI(engine: engine, live: LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false)),
                                   clock: { clock.now }, sharesLayers: false, keepsLayouts: false)
            try here.addPerson(id: viewer.rawValue, name: "Viewer")
            token = try here.mintToken(for: viewer.rawValue)
        }

        func layout(_ api: MapAPI, ifNoneMatch: String? = nil) -> HTTPResponse {
            api.handle(HTTPRequest(method: "GET", path: "/v1/me/layout.json", query: ["selected": "f1"], ifNoneMatch: ifNoneMatch,
                                   authorization: "Bearer " + token, contentType: nil, body: []))
        }

        /// Asks both servers (plainly and revalidating the cached server's last tag) and requires the same status,
        /// tag and bytes; returns the tag.
        @discardableResult
        func compare(_ what: String, previous: String? = nil) -> String? {
            let (kept, fresh) = (layout(cached), layout(reference))
            #expect(kept.status == fresh.status, "\(what): status")
            #expect(kept.body == fresh.body, "\(what): the kept answer is not the store's")
            #expect(kept.header("ETag") == fresh.header("ETag"), "\(what): ETag")
            if let previous {
                #expect(layout(cached, ifNoneMatch: previous).status == layout(reference, ifNoneMatch: previous).status, "\(what): revalidation")
            }
            return kept.header("ETag")
        }

        /// Requires that the viewer's answer is kept now (so that the next comparison tests an invalidation).
        func requireKept(_ what: String) {
            let key = LayoutAnswers.key(viewer, query: ["selected": "f1"], at: clock.now)
            #expect(cached.layoutAnswers?.answer(key, stamp: here.answerStamp(of: viewer), at: clock.now) != nil, "\(what): nothing kept")
        }

        func friend(_ index: Int, by writer: LiveMapService, at: Date) throws {
            let id = "f\(index)"
            try writer.addPerson(id: id, name: "Friend \(index)")
            _ = try writer.requestFriend(viewer, id)
            _ = try writer.requestFriend(PersonID(trusted: id), viewer.rawValue)
            _ = try writer.setSharing(PersonID(trusted: id), ghost: "off", audience: ("friends", []), now: at)
            try move(index, by: writer, at: at, step: 0)
        }

        func move(_ index: Int, by writer: LiveMapService, at: Date, step: Int) throws {
            let fix = try LocationFix(lat: 40.7140 + 0.0012 * Double(index) + 0.0003 * Double(step), lon: -73.9610 + 0.0009 * Double(index),
                                      accuracyMeters: 10, takenAt: at)
            _ = try writer.updateLocation(PersonID(trusted: "f\(index)"), fix: fix, now: at)
        }

        /// After a write by `writer`, the view has heard it (at once for its own, through the log for another's).
        func settle(_ writer: LiveMapService) throws {
            guard writer === elsewhere else { return }
            let mark = DispatchTime.now().uptimeNanoseconds
            let deadline = Date().addingTimeInterval(20)
            while (feed.caughtUpAt ?? 0) <= mark {
                guard Date() < deadline else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the change feed never caught up"]) }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    @Test func everyChangeThatReachesAViewerGivesAFreshAnswer() throws {
        let world = try World()
        let t0 = Self.t0
        for index in 0..<7 { try world.friend(index, by: index % 2 == 0 ? world.here : world.elsewhere, at: t0) }
        try world.settle(world.elsewhere)
        var tag = world.compare("start")
        for writer in [world.here, world.elsewhere] {
            let who = writer === world.here ? "here" : "elsewhere"
            let changes: [(String, () throws -> Void)] = [
                ("a friend's move", {
                    let step = writer === world.here ? 1 : 2
                    try world.move(1, by: writer, at: world.clock.now.addingTimeInterval(Double(step)), step: step)
                }),
                ("sharing: Ghost Mode", { _ = try writer.setSharing(PersonID(trusted: "f2"), ghost: "untilOff", audience: nil, now: world.clock.now) }),
                ("a live share with the viewer", { try writer.startLiveShare(PersonID(trusted: "f2"), with: "viewer", duration: "1h", now: world.clock.now) }),
                ("the live share paused", { try writer.pauseLiveShare(PersonID(trusted: "f2"), with: "viewer", paused: true, now: world.clock.now) }),
                ("sharing: audience", { _ = try writer.setSharing(PersonID(trusted: "f3"), ghost: nil, audience: ("friendsExcept", ["viewer"]), now: world.clock.now) }),
                ("a block", { try writer.block(PersonID(trusted: "f4"), "viewer") }),
                ("an unblock and asks again", {
                    try writer.unblock(PersonID(trusted: "f4"), "viewer")
                    _ = try writer.requestFriend(PersonID(trusted: "f4"), "viewer")
                    _ = try writer.requestFriend(world.viewer, "f4")
                }),
                ("an ask withdrawn", { try writer.removeFriend(PersonID(trusted: "f0"), "viewer") }),
                ("asks again", {
                    _ = try writer.requestFriend(PersonID(trusted: "f0"), "viewer")
                    _ = try writer.requestFriend(world.viewer, "f0")
                }),
                ("a deletion", { try writer.removePerson(writer === world.here ? "f5" : "f6") }),
            ]
            for (what, change) in changes {
                world.compare("\(who), before \(what)")
                world.requireKept("\(who), before \(what)")
                try change()
                try world.settle(writer)
                let next = world.compare("\(who), after \(what)", previous: tag)
                #expect(next != tag, "\(who): \(what) changed nothing the viewer sees, so it tests no invalidation")
                tag = next
            }
            // Put back what this round took away, for the other writer's round.
            _ = try writer.setSharing(PersonID(trusted: "f2"), ghost: "off", audience: nil, now: world.clock.now)
            _ = try writer.setSharing(PersonID(trusted: "f3"), ghost: nil, audience: ("friends", []), now: world.clock.now)
            try world.settle(writer)
            tag = world.compare("\(who), restored")
        }
        world.compare("before revocation")
        world.requireKept("before revocation")
        _ = try world.elsewhere.revokeTokens(of: world.viewer.rawValue)
        try world.settle(world.elsewhere)
        #expect(world.layout(world.cached).status == 401, "a revoked token still read a kept answer")
        world.compare("after revocation")
    }

    @Test func anAnswerWhoseStampMovedWhileItWasMadeIsNotKept() {
        let answers = LayoutAnswers()
        let key = LayoutAnswers.key(PersonID(trusted: "viewer"), query: [:], at: Self.t0)
        let answer = LayoutAnswers.Answer(body: Array("{}".utf8), tag: "\"t\"", stamp: 7, until: nil)
        answers.keep(answer, for: key, stampNow: { 8 })
        #expect(answers.answer(key, stamp: 7, at: Self.t0) == nil && answers.bytes == 0)
        answers.keep(answer, for: key, stampNow: { 7 })
        #expect(answers.answer(key, stamp: 7, at: Self.t0)?.body == answer.body)
        #expect(answers.answer(key, stamp: 8, at: Self.t0) == nil)
    }

    @Test func aGhostTimerAFixExpiryAndALiveShareEndingGiveAFreshAnswerAtTheirInstant() throws {
        let world = try World()
        let t0 = Self.t0
        for index in 0..<3 { try world.friend(index, by: world.here, at: index == 1 ? t0.addingTimeInterval(-30) : t0) }
        // A Ghost timer set at t0 + 20 s ends three hours later, 20 s past that minute; f1's fix, taken at t0 + 10 s,
        // expires 24 hours later, 10 s past its minute (t0 is 40 s past a minute).
        _ = try world.here.setSharing(PersonID(trusted: "f2"), ghost: "3h", audience: nil, now: t0.addingTimeInterval(-20))
        // f0, in Ghost Mode, shares live with the viewer for an hour from t0 − 15 s: it ends 25 s past a minute.
        _ = try world.here.setSharing(PersonID(trusted: "f0"), ghost: "untilOff", audience: nil, now: t0)
        try world.here.startLiveShare(PersonID(trusted: "f0"), with: "viewer", duration: "1h", now: t0.addingTimeInterval(-15))
        for (what, instant) in [("a live share ending", t0.addingTimeInterval(3600 - 15)), ("a Ghost timer ending", t0.addingTimeInterval(3 * 3600 - 20)),
                                ("a fix expiring", t0.addingTimeInterval(24 * 3600 - 30))] {
            world.clock.set(instant.addingTimeInterval(-2))
            world.compare("before \(what)")
            world.requireKept("before \(what)")
            world.clock.set(instant.addingTimeInterval(1))
            world.compare("after \(what)")
        }
    }
}
