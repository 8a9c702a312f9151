import Foundation
import LiveMap

/// `/v1/me/events`: each open stream is told when a friend appears on its viewer's map, moves, or disappears.
/// Everything sent is derived from what the visibility rule lets that viewer see, so a hidden person's changes
/// send nothing. Changes are handled in order on one queue; `sweep` catches what time alone changes (Ghost Mode
/// timers ending, fixes passing 24 hours) and sends the keep-alive that finds departed clients.
public final class EventHub: @unchecked Sendable {
    /// Seconds between sweeps when running on a timer.
    public static let sweepInterval = 10.0
    public static let maxStreamsPerViewer = 8

    private struct Subscriber {
        let viewer: PersonID
        let stream: HTTPStream
        var known: [PersonID: VisibleFriend]
        /// Everyone the viewer asked: the only people who can appear on this stream.
        var candidates: Set<PersonID>
    }

    private let live: LiveMapService
    private let clock: @Sendable () -> Date
    private let queue = DispatchQueue(label: "snapmap-events")
    private var subscribers: [Int: Subscriber] = [:]
    private var byViewer: [PersonID: Set<Int>] = [:]
    /// For each person, the streams whose viewer asked them: a move is checked only there, with no store query.
    private var watchers: [PersonID: Set<Int>] = [:]
    private var nextID = 0
    private var timer: (any DispatchSourceTimer)?

    public init(live: LiveMapService, clock: @escaping @Sendable () -> Date) {
        self.live = live
        self.clock = clock
        live.observe { [weak self] change in
            guard let hub = self else { return }
            hub.queue.async { hub.apply(change) }
        }
    }

    /// Sweeps every `sweepInterval` seconds until the hub goes away.
    public func startSweeping() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.sweepInterval, repeating: Self.sweepInterval)
        timer.setEventHandler { [weak self] in self?.sweepNow() }
        timer.resume()
        queue.sync { self.timer = timer }
    }

    /// The number of open streams (for health and tests).
    public var streamCount: Int { queue.sync { subscribers.count } }

    /// Whether `viewer` may open another stream.
    func admits(_ viewer: PersonID) -> Bool {
        queue.sync { (byViewer[viewer]?.count ?? 0) < Self.maxStreamsPerViewer }
    }

    /// Starts a viewer's stream with a `ready` event listing the friends they see now.
    func subscribe(_ viewer: PersonID, stream: HTTPStream) {
        queue.async {
            let candidates = (try? self.live.store.candidates(of: viewer)) ?? []
            let now = self.clock()
            let friends = candidates.compactMap { LiveMapService.visible($0, at: now) }
            let id = self.nextID
            self.nextID += 1
            guard stream.send(": snapmap events\nretry: 2000\n\n" + Self.event("ready", friends.map(Self.payload))) else { return }
            self.subscribers[id] = Subscriber(viewer: viewer, stream: stream, known: Dictionary(uniqueKeysWithValues: friends.map { ($0.person.id, $0) }),
                                              candidates: [])
            self.byViewer[viewer, default: []].insert(id)
            self.watch(id, Set(candidates.map(\.person.id)))
        }
    }

    /// Re-evaluates every stream now and sends the keep-alive (also what the timer does). Returns when done.
    public func sweep() {
        queue.sync { sweepNow() }
    }

    /// Waits until every change observed so far has been sent.
    public func flush() {
        queue.sync {}
    }

    private func sweepNow() {
        let now = clock()
        for (id, subscriber) in subscribers {
            guard let friends = try? live.visibleFriends(of: subscriber.viewer, at: now) else { continue }
            let current = Dictionary(uniqueKeysWithValues: friends.map { ($0.person.id, $0) })
            for person in Set(current.keys).union(subscriber.known.keys).sorted() { update(id, person, current[person]) }
            if subscribers[id]?.stream.send(": keep-alive\n\n") == false { drop(id) }
        }
    }

    private func apply(_ change: LiveChange) {
        let now = clock()
        switch change {
        case .person(let person):
            guard let ids = watchers[person] else { return }
            for viewer in Set(ids.compactMap { subscribers[$0]?.viewer }) { reevaluate(viewer: viewer, person: person, now: now) }
        case .pair(let first, let second):
            refreshCandidates(first)
            refreshCandidates(second)
            reevaluate(viewer: first, person: second, now: now)
            reevaluate(viewer: second, person: first, now: now)
        }
    }

    private func reevaluate(viewer: PersonID, person: PersonID, now: Date) {
        guard let ids = byViewer[viewer] else { return }
        let seen = try? live.visibleFriend(person, of: viewer, at: now)
        for id in ids { update(id, person, seen) }
    }

    /// Re-reads whom a viewer asked (their friendships changed), for the viewer's open streams.
    private func refreshCandidates(_ viewer: PersonID) {
        guard let ids = byViewer[viewer], let candidates = try? live.store.candidates(of: viewer) else { return }
        for id in ids { watch(id, Set(candidates.map(\.person.id))) }
    }

    private func watch(_ id: Int, _ candidates: Set<PersonID>) {
        guard let old = subscribers[id]?.candidates else { return }
        for person in old.subtracting(candidates) { unwatch(id, person) }
        for person in candidates.subtracting(old) { watchers[person, default: []].insert(id) }
        subscribers[id]?.candidates = candidates
    }

    private func unwatch(_ id: Int, _ person: PersonID) {
        watchers[person]?.remove(id)
        if watchers[person]?.isEmpty == true { watchers[person] = nil }
    }

    /// Sends what changed about `person` on stream `id`: appear, move, or disappear.
    private func update(_ id: Int, _ person: PersonID, _ seen: VisibleFriend?) {
        guard let subscriber = subscribers[id] else { return }
        let before = subscriber.known[person]
        guard before != seen else { return }
        let text: String
        switch (before, seen) {
        case (nil, let now?): text = Self.event("appear", Self.payload(now))
        case (_?, let now?): text = Self.event("move", Self.payload(now))
        default: text = Self.event("disappear", ["id": person.rawValue])
        }
        subscribers[id]?.known[person] = seen
        if !subscriber.stream.send(text) { drop(id) }
    }

    private func drop(_ id: Int) {
        guard let subscriber = subscribers[id] else { return }
        for person in subscriber.candidates { unwatch(id, person) }
        subscribers[id] = nil
        byViewer[subscriber.viewer]?.remove(id)
        if byViewer[subscriber.viewer]?.isEmpty == true { byViewer[subscriber.viewer] = nil }
    }

    static func payload(_ friend: VisibleFriend) -> [String: Any] {
        ["id": friend.person.id.rawValue, "name": friend.person.name, "lat": friend.fix.coordinate.lat,
         "lon": friend.fix.coordinate.lon, "at": ISO8601DateFormatter().string(from: friend.fix.takenAt)]
    }

    /// One Server-Sent Event with a JSON payload (keys sorted).
    static func event(_ name: String, _ payload: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return "event: \(name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
    }
}
