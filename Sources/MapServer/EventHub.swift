import Foundation
import LiveMap

/// `/v1/me/events`: each open stream is told when a friend appears on its viewer's map, moves, or disappears.
/// Everything sent is derived from what the visibility rule lets that viewer see, so a hidden person's changes
/// send nothing. Changes are handled in order on one queue, as they are announced (by this process, the bus, or
/// the store's change log); what time alone changes (a Ghost timer ending, a fix passing 24 hours) fires at its
/// instant, from the rule's own `nextChange`. A stream whose token is revoked, or whose person is removed, ends
/// at once. A sweep every `sweepInterval` re-reads everything, a slice of viewers at a time, as a safety net.
public final class EventHub: @unchecked Sendable {
    /// Seconds between sweeps when running on a timer: the longest a lost message can leave a stream stale.
    public static let sweepInterval = 10.0
    /// Viewers re-read in one step of a sweep, so that changes queued meanwhile wait for a slice, not a sweep.
    static let sweepSlice = 16
    public static let maxStreamsPerViewer = 8
    static let payloadTextLimit = 100_000
    /// A token check the store could not answer is tried again this often (for `unansweredBound` at most).
    static let recheckDelay = 0.1
    /// Viewers whose reads the store did not answer, to try again (`EventHub+Unanswered`).
    var failing: [PersonID: Unanswered] = [:]
    var retryArmed = false

    struct Subscriber {
        let viewer: PersonID
        let tokenHash: String
        let stream: HTTPStream
        var known: [PersonID: VisibleFriend]
        /// Everyone the viewer asked: the only people who can appear on this stream.
        var candidates: Set<PersonID>
        /// The state each of the viewer's orders was last sent in on this stream (`EventHub+Orders`).
        var orders = SentOrderStates()
    }

    struct Pair: Hashable {
        let viewer: PersonID
        let person: PersonID
    }

    let live: LiveMapService
    let clock: @Sendable () -> Date
    let queue = DispatchQueue(label: "snapmap-events")
    var subscribers: [Int: Subscriber] = [:]
    var byViewer: [PersonID: Set<Int>] = [:]
    /// For each person, the streams whose viewer asked them: a move is checked only there.
    var watchers: [PersonID: Set<Int>] = [:]
    /// When each watched pair's visibility changes by time alone.
    var deadlines = DeadlineQueue<Pair>()
    var payloadTexts: [PersonID: (person: Person, fix: LocationFix, text: String)] = [:]
    /// The events' date formatter, used on `queue` only.
    let dates = ISO8601DateFormatter()
    private let admission = NSLock()
    /// Stream places taken per viewer (streams open or opening).
    private var admitted: [PersonID: Int] = [:]
    private var nextID = 0
    private var sweepTimer: (any DispatchSourceTimer)?
    let deadlineTimer: any DispatchSourceTimer

    public init(live: LiveMapService, clock: @escaping @Sendable () -> Date) {
        self.live = live
        self.clock = clock
        deadlineTimer = DispatchSource.makeTimerSource(queue: queue)
        deadlineTimer.setEventHandler { [weak self] in self?.fireDeadlines() }
        deadlineTimer.schedule(deadline: .distantFuture)
        deadlineTimer.resume()
        live.observe { [weak self] change in
            guard let hub = self else { return }
            hub.queue.async { hub.apply(change) }
        }
        live.observeResync { [weak self] in
            guard let hub = self else { return }
            hub.queue.async { hub.startSweep() }
        }
    }

    deinit {
        deadlineTimer.cancel()
        sweepTimer?.cancel()
    }

    /// Sweeps every `sweepInterval` seconds until the hub goes away.
    public func startSweeping() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.sweepInterval, repeating: Self.sweepInterval)
        timer.setEventHandler { [weak self] in self?.startSweep() }
        timer.resume()
        queue.sync { sweepTimer = timer }
    }

    /// The number of open streams (for health and tests).
    public var streamCount: Int { queue.sync { subscribers.count } }

    /// Takes one of `viewer`'s `maxStreamsPerViewer` stream places; false when all are taken. It never waits for the
    /// hub's queue: an HTTP thread that did stalled every connection it serves while streams opened by the thousand
    /// (their `ready` events waited, and those still unanswered met the idle timeout). `subscribe` gives the place
    /// back when the stream does not open, and `drop` when it ends.
    func admit(_ viewer: PersonID) -> Bool {
        admission.withLock {
            guard admitted[viewer, default: 0] < Self.maxStreamsPerViewer else { return false }
            admitted[viewer, default: 0] += 1
            return true
        }
    }

    func release(_ viewer: PersonID) {
        admission.withLock {
            admitted[viewer, default: 1] -= 1
            if admitted[viewer] == 0 { admitted[viewer] = nil }
        }
    }

    /// Starts a viewer's stream (admitted first), opened with the token of hash `tokenHash`, with a `ready` event
    /// listing the friends they see now; a token revoked meanwhile ends it instead.
    func subscribe(_ viewer: PersonID, tokenHash: String, stream: HTTPStream) {
        queue.async {
            // A token the store cannot vouch for, or friends it cannot read, end the stream: never a `ready` of
            // nobody (the client tries again, and gets one once the store answers).
            guard case .success(true) = self.read({ try self.live.signsIn(tokenHash: tokenHash, viewer) }),
                  case .success(let candidates) = self.read({ try self.live.store.candidates(of: viewer) }) else {
                self.release(viewer)
                return stream.end()
            }
            let now = self.clock()
            let friends = candidates.compactMap { LiveMapService.visible($0, at: now) }
            let id = self.nextID
            self.nextID += 1
            guard stream.send(": snapmap events\nretry: 2000\n\n" + self.ready(friends) + self.liveStarted(friends)) else { return self.release(viewer) }
            self.subscribers[id] = Subscriber(viewer: viewer, tokenHash: tokenHash, stream: stream,
                                              known: Dictionary(uniqueKeysWithValues: friends.map { ($0.person.id, $0) }), candidates: [])
            self.byViewer[viewer, default: []].insert(id)
            self.watch(id, Set(candidates.map(\.person.id)))
            self.schedule(viewer, candidates, now: now)
        }
    }

    /// Re-evaluates every stream now and sends the keep-alive (what the timer does, in slices). Returns when done.
    public func sweep() {
        queue.sync { sweep(viewers: Array(byViewer.keys)) }
    }

    /// Waits until every change observed so far has been sent.
    public func flush() {
        queue.sync {}
    }

    private func apply(_ change: LiveChange) {
        let now = clock()
        switch change {
        case .person(let person):
            guard let ids = watchers[person] else { return }
            let viewers = Set(ids.compactMap { subscribers[$0]?.viewer })
            guard case .success(let seenBy) = read({ try live.store.viewers(of: person) }) else {
                for viewer in viewers { reevaluate(viewer: viewer, person: person, now: now) }
                return rearm()
            }
            let byViewer = Dictionary(seenBy.map { ($0.facts.viewer, $0) }, uniquingKeysWith: { first, _ in first })
            for viewer in viewers { settle(viewer: viewer, person: person, byViewer[viewer], now: now) }
        case .pair(let first, let second):
            refreshCandidates(first)
            refreshCandidates(second)
            reevaluate(viewer: first, person: second, now: now)
            reevaluate(viewer: second, person: first, now: now)
        case .sessions(let person):
            checkTokens((byViewer[person] ?? []).sorted())
        case .removed(let person):
            payloadTexts[person] = nil
            for id in byViewer[person] ?? [] { end(id) }
            for id in watchers[person] ?? [] {
                guard let viewer = subscribers[id]?.viewer else { continue }
                refreshCandidates(viewer)
                update(id, person, nil)
            }
        }
        rearm()
    }
}
