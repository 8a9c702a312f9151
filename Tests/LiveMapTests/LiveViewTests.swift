import Foundation
import GeoCore
@testable import LiveMap
import Testing

/// The in-memory view against the store it stands in front of: after any stream of changes (its own and another
/// process's, heard through the change log) and at any later clock, it answers exactly as the store; when its bus
/// goes silent it answers from the store once `LiveView.stalenessBound` has passed.
@Suite("LiveView")
struct LiveViewTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    /// A bus that delivers only what a test hands it and reports the caught-up instant the test sets.
    final class ManualBus: LiveBus, BusLiveness, @unchecked Sendable {
        private let lock = NSLock()
        private var at: UInt64?
        private var handlers: [@Sendable (LiveBusMessage) -> Void] = []
        var caughtUpAt: UInt64? { lock.withLock { at } }
        func caughtUp(at instant: UInt64) { lock.withLock { at = instant } }
        func publish(_ message: LiveBusMessage) {}
        func listen(_ handler: @escaping @Sendable (LiveBusMessage) -> Void) { lock.withLock { handlers.append(handler) } }
        func deliver(_ message: LiveBusMessage) { for handler in lock.withLock({ handlers }) { handler(message) } }
    }

    /// A monotonic clock moved by hand, in nanoseconds.
    final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var nanoseconds: UInt64 = 1_000_000_000_000
        var now: UInt64 { lock.withLock { nanoseconds } }
        func advance(seconds: Double) { lock.withLock { nanoseconds += UInt64(seconds * 1e9) } }
    }

    /// What a viewer sees, in a form that compares whatever order a store lists people in.
    static func seen(_ live: LiveMapService, _ viewer: PersonID, at now: Date) throws -> Set<VisibleFriend> {
        Set(try live.visibleFriends(of: viewer, at: now))
    }

    /// Waits until `feed` has polled the log after this instant (every change written before it is then heard).
    static func waitForFeed(_ feed: SQLiteChangeFeed) throws {
        let mark = DispatchTime.now().uptimeNanoseconds
        let deadline = Date().addingTimeInterval(20)
        while (feed.caughtUpAt ?? 0) <= mark {
            guard Date() < deadline else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the change feed never caught up"]) }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    @Test func aViewAnswersAsTheStoreAfterARandomStreamOfChanges() throws {
        let path = SQLiteStoreTests.temporaryPath()
        let reference = LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false))
        let elsewhere = LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false))
        let viewStore = try SQLiteLiveStore(path: path, synchronous: false)
        let view = LiveView(store: viewStore)
        let viewed = LiveMapService(store: view)
        let feed = viewStore.makeChangeFeed()
        viewed.attach(feed)
        let ids = (0..<24).map { "p\($0)" }
        var random = SplitMix64(seed: 28)
        var now = Self.t0
        for id in ids.prefix(12) { try elsewhere.addPerson(id: id, name: "Person \(id)") }
        for id in ids.dropFirst(12) { try viewed.addPerson(id: id, name: "Person \(id)") }
        for id in ids { try elsewhere.setSharing(PersonID(trusted: id), ghost: "off", audience: nil, now: now) }
        try Self.waitForFeed(feed)
        let pick = { (random: inout SplitMix64) in ids[Int(random.next() % UInt64(ids.count))] }
        var compared = 0
        for step in 0..<260 {
            let writer = random.next() % 3 == 0 ? elsewhere : viewed
            let (a, b) = (pick(&random), pick(&random))
            try RandomLiveChange.make(by: writer, a, b, random: &random, now: now, listedMost: 6, other: pick)
            // Heard through the log (another process's changes), and the log read within the bound even when this
            // crowded machine kept the feed's thread waiting: what is asserted is that the view answers, not when.
            try Self.waitForFeed(feed)
            // Time passes with nothing else happening: Ghost timers end and fixes turn 24 hours old by themselves.
            now = now.addingTimeInterval(Double(random.next() % 240))
            let later: [Double] = step % 20 == 0 ? [0, 3 * 3600 + 1, 24 * 3600 + 1] : [0]
            #expect(view.isCurrent, "step \(step): the view must answer, not the store")
            for viewer in ids.map(PersonID.init(trusted:)) {
                for offset in later {
                    let at = now.addingTimeInterval(offset)
                    let expected = try Self.seen(reference, viewer, at: at)
                    #expect(try Self.seen(viewed, viewer, at: at) == expected, "step \(step), \(viewer) at +\(offset) s")
                    compared += expected.count
                }
                #expect(Set(try view.viewers(of: viewer)) == Set(try reference.store.viewers(of: viewer)), "step \(step): viewers of \(viewer)")
            }
        }
        #expect(compared > 500, "the random world shows people")
        // Loaded again, by the store's whole reads and by its reads of each person, the view answers alike.
        for byPages in [false, true] {
            let reloaded = LiveView(store: viewStore)
            if byPages { try reloaded.loadByPages() } else { try reloaded.load() }
            let live = LiveMapService(store: reloaded)
            for viewer in ids.map(PersonID.init(trusted:)) {
                #expect(Set(try reloaded.candidates(of: viewer)) == Set(try viewStore.candidates(of: viewer)), "\(viewer), by pages: \(byPages)")
                #expect(try Self.seen(live, viewer, at: now) == Self.seen(reference, viewer, at: now))
            }
        }
    }

    /// A new store file where Ann and Bob are friends and Bob shares with everyone, written by another process's
    /// service (`elsewhere`): what a view over the file must learn of by its bus.
    static func annAndBob() throws -> (path: String, elsewhere: LiveMapService, ann: PersonID, bob: PersonID) {
        let path = SQLiteStoreTests.temporaryPath()
        let elsewhere = LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false))
        let ann = try elsewhere.addPerson(id: "ann", name: "Ann").id
        let bob = try elsewhere.addPerson(id: "bob", name: "Bob").id
        try elsewhere.requestFriend(ann, "bob")
        try elsewhere.requestFriend(bob, "ann")
        try elsewhere.setSharing(bob, ghost: "off", audience: nil, now: t0)
        return (path, elsewhere, ann, bob)
    }

    @Test func aSilentBusLeavesTheAnswersToTheStoreAfterTheBound() throws {
        let (path, elsewhere, ann, bob) = try Self.annAndBob()
        try elsewhere.updateLocation(bob, fix: LocationFix(lat: 40.71, lon: -73.96, accuracyMeters: 5, takenAt: Self.t0), now: Self.t0)
        let clock = ManualClock()
        let bus = ManualBus()
        let view = LiveView(store: try SQLiteLiveStore(path: path, synchronous: false), monotonic: { clock.now })
        let viewed = LiveMapService(store: view)
        #expect(!view.isCurrent, "a view is not current before it is loaded")
        bus.caughtUp(at: clock.now)
        viewed.attach(bus)
        #expect(view.isCurrent)
        #expect(try viewed.visibleFriends(of: ann, at: Self.t0).map(\.person.id) == [bob])

        // The bus goes silent; meanwhile another process blocks. Within the bound the view may still show Bob...
        try elsewhere.block(bob, "ann")
        clock.advance(seconds: LiveView.stalenessBound * 0.9)
        #expect(view.isCurrent)
        #expect(try viewed.visibleFriends(of: ann, at: Self.t0).map(\.person.id) == [bob])
        // ...and past it the store answers: Bob is gone.
        clock.advance(seconds: LiveView.stalenessBound * 0.1 + 0.001)
        #expect(!view.isCurrent)
        #expect(try viewed.visibleFriends(of: ann, at: Self.t0).isEmpty)
        #expect(try view.candidates(of: ann).isEmpty && view.fix(of: bob) != nil)

        // The bus comes back and, having lost messages, resyncs: the view answers again, from the reloaded state.
        bus.caughtUp(at: clock.now)
        bus.deliver(.resync)
        let deadline = Date().addingTimeInterval(10)
        while !view.isCurrent, Date() < deadline { usleep(1000) }
        #expect(view.isCurrent, "the view loaded itself again in the background")
        #expect(try viewed.visibleFriends(of: ann, at: Self.t0).isEmpty)
    }

    @Test func ownBlocksAndDeletionsApplyAtOnce() throws {
        let path = SQLiteStoreTests.temporaryPath()
        let view = LiveView(store: try SQLiteLiveStore(path: path, synchronous: false))
        try view.load()
        let live = LiveMapService(store: view)
        let ann = try live.addPerson(id: "ann", name: "Ann").id
        let bob = try live.addPerson(id: "bob", name: "Bob").id
        let cy = try live.addPerson(id: "cy", name: "Cy").id
        for (first, second) in [(ann, bob), (ann, cy)] {
            try live.requestFriend(first, second.rawValue)
            try live.requestFriend(second, first.rawValue)
        }
        for person in [bob, cy] {
            try live.setSharing(person, ghost: "off", audience: nil, now: Self.t0)
            try live.updateLocation(person, fix: LocationFix(lat: 40.71, lon: -73.96, accuracyMeters: 5, takenAt: Self.t0), now: Self.t0)
        }
        #expect(view.isCurrent)
        #expect(Set(try live.visibleFriends(of: ann, at: Self.t0).map(\.person.id)) == [bob, cy])
        try live.block(bob, "ann")
        #expect(try live.visibleFriends(of: ann, at: Self.t0).map(\.person.id) == [cy])
        try live.removePerson("cy")
        #expect(try live.visibleFriends(of: ann, at: Self.t0).isEmpty && view.fix(of: cy) == nil)
        #expect(try view.viewers(of: bob).isEmpty)
    }
}
