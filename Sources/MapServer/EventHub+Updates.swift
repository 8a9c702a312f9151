import Foundation
import LiveMap

/// How the hub re-reads what a viewer sees and tells their streams; all of it runs on the hub's queue.
extension EventHub {
    /// Starts a sweep of every viewer, a slice per step of the queue.
    func startSweep() {
        let viewers = Array(byViewer.keys)
        for start in stride(from: 0, to: viewers.count, by: Self.sweepSlice) {
            let slice = Array(viewers[start..<min(viewers.count, start + Self.sweepSlice)])
            queue.async { self.sweep(viewers: slice) }
        }
    }

    /// Re-reads the viewers' friends (once per viewer, for all their streams), checks each stream's token and
    /// sends the keep-alive that finds departed clients.
    func sweep(viewers: [PersonID]) {
        let now = clock()
        checkTokens(viewers.flatMap { byViewer[$0] ?? [] }.sorted())
        for viewer in viewers where byViewer[viewer] != nil {
            guard reread(viewer, now: now) else { continue }
            for id in byViewer[viewer] ?? [] where subscribers[id]?.stream.send(": keep-alive\n\n") == false { drop(id) }
        }
        rearm()
    }

    /// Reads everyone `viewer` asked and tells their streams what changed; false (the streams as they were, the read
    /// to be tried again) when the store did not answer.
    @discardableResult
    func reread(_ viewer: PersonID, now: Date) -> Bool {
        guard case .success(let candidates) = read({ try live.store.candidates(of: viewer) }) else {
            unanswered(viewer)
            return false
        }
        failing[viewer] = nil
        let current = Dictionary(uniqueKeysWithValues: candidates.compactMap { LiveMapService.visible($0, at: now) }.map { ($0.person.id, $0) })
        schedule(viewer, candidates, now: now)
        for id in byViewer[viewer] ?? [] {
            guard let subscriber = subscribers[id] else { continue }
            watch(id, Set(candidates.map(\.person.id)))
            for person in Set(current.keys).union(subscriber.known.keys).sorted() { update(id, person, current[person]) }
        }
        return true
    }

    /// Re-evaluates the pairs whose instant has come.
    func fireDeadlines() {
        let now = clock()
        for pair in deadlines.popDue(at: now) where byViewer[pair.viewer] != nil {
            reevaluate(viewer: pair.viewer, person: pair.person, now: now)
        }
        rearm()
    }

    /// Points the deadline timer at the earliest instant still to come.
    func rearm() {
        guard let earliest = deadlines.earliest() else { return deadlineTimer.schedule(deadline: .distantFuture) }
        let delay = max(0, earliest.timeIntervalSince(clock()))
        deadlineTimer.schedule(deadline: .now() + delay, leeway: .milliseconds(1))
    }

    /// Records when each of a viewer's candidates next changes by time alone.
    func schedule(_ viewer: PersonID, _ candidates: [Candidate], now: Date) {
        for candidate in candidates {
            deadlines.set(Pair(viewer: viewer, person: candidate.person.id), at: VisibilityRule.nextChange(candidate.facts, after: now))
        }
    }

    /// Reads what `viewer` sees of `person` and tells their streams; a read the store did not answer changes nothing
    /// and is tried again.
    func reevaluate(viewer: PersonID, person: PersonID, now: Date) {
        guard byViewer[viewer] != nil else { return }
        switch read({ try live.store.candidate(viewer: viewer, person: person) }) {
        case .success(let candidate): settle(viewer: viewer, person: person, candidate, now: now)
        case .failure: unanswered(viewer, person: person)
        }
    }

    /// Tells the viewer's streams what `candidate` (nil: nobody) shows of `person` now, and when that next changes.
    func settle(viewer: PersonID, person: PersonID, _ candidate: Candidate?, now: Date) {
        guard let ids = byViewer[viewer] else { return }
        deadlines.set(Pair(viewer: viewer, person: person), at: candidate.flatMap { VisibilityRule.nextChange($0.facts, after: now) })
        let seen = candidate.flatMap { LiveMapService.visible($0, at: now) }
        for id in ids { update(id, person, seen) }
    }

    /// Re-reads whom a viewer asked (their friendships changed), for the viewer's open streams.
    func refreshCandidates(_ viewer: PersonID) {
        guard let ids = byViewer[viewer] else { return }
        guard case .success(let candidates) = read({ try live.store.candidates(of: viewer) }) else { return unanswered(viewer) }
        for id in ids { watch(id, Set(candidates.map(\.person.id))) }
    }

    func watch(_ id: Int, _ candidates: Set<PersonID>) {
        guard let old = subscribers[id]?.candidates else { return }
        for person in old.subtracting(candidates) { unwatch(id, person) }
        for person in candidates.subtracting(old) { watchers[person, default: []].insert(id) }
        subscribers[id]?.candidates = candidates
    }

    private func unwatch(_ id: Int, _ person: PersonID) {
        watchers[person]?.remove(id)
        if watchers[person]?.isEmpty == true { watchers[person] = nil }
    }

    /// Sends what changed about `person` on stream `id`: appear, move, or disappear, and `live-started` (after an
    /// appear) or `live-ended` (before a disappear) when their Live Location share with the viewer starts or stops
    /// showing.
    func update(_ id: Int, _ person: PersonID, _ seen: VisibleFriend?) {
        guard let subscriber = subscribers[id] else { return }
        let before = subscriber.known[person]
        guard before != seen else { return }
        var text = ""
        if before?.liveUntil != nil, seen?.liveUntil == nil { text += Self.event("live-ended", ["id": person.rawValue]) }
        switch (before, seen) {
        case (nil, let now?): text += "event: appear\ndata: " + payloadText(now) + "\n\n"
        case (let was?, let now?) where was.withoutLive != now.withoutLive: text += "event: move\ndata: " + payloadText(now) + "\n\n"
        case (_?, nil): text += Self.event("disappear", ["id": person.rawValue])
        default: break
        }
        if let until = seen?.liveUntil, until != before?.liveUntil {
            text += Self.event("live-started", ["id": person.rawValue, "until": dates.string(from: until)])
        }
        subscribers[id]?.known[person] = seen
        if !subscriber.stream.send(text) { drop(id) }
    }

    /// Closes a stream from this side (a revoked token, a removed person) and forgets it.
    func end(_ id: Int) {
        subscribers[id]?.stream.end()
        drop(id)
    }

    func drop(_ id: Int) {
        guard let subscriber = subscribers[id] else { return }
        for person in subscriber.candidates { unwatch(id, person) }
        subscribers[id] = nil
        release(subscriber.viewer)
        byViewer[subscriber.viewer]?.remove(id)
        if byViewer[subscriber.viewer]?.isEmpty == true { byViewer[subscriber.viewer] = nil }
    }

    /// The `ready` event listing `friends`: their kept payload texts in one JSON array, the bytes `event("ready", …)`
    /// makes of their payloads. Serialising every friend afresh (keys sorted by a locale-aware comparison) was most of
    /// a stream's opening: 1,000 streams waited 45-65 s for their `ready` on a loaded machine.
    func ready(_ friends: [VisibleFriend]) -> String {
        "event: ready\ndata: [" + friends.map(payloadText).joined(separator: ",") + "]\n\n"
    }

    /// The `live-started` events of the friends in a `ready` who share live with its viewer.
    func liveStarted(_ friends: [VisibleFriend]) -> String {
        friends.compactMap { friend in friend.liveUntil.map { Self.event("live-started", ["id": friend.person.id.rawValue, "until": dates.string(from: $0)]) } }.joined()
    }

    /// What a stream is told of a friend, as JSON: the same for every viewer, so the text of each person's latest
    /// state is kept (at most `payloadTextLimit` people) and a move fanned out to many streams is written once.
    func payloadText(_ friend: VisibleFriend) -> String {
        if let kept = payloadTexts[friend.person.id], kept.person == friend.person, kept.fix == friend.fix { return kept.text }
        if payloadTexts.count >= Self.payloadTextLimit { payloadTexts.removeAll(keepingCapacity: true) }
        let text = Self.json(payload(friend))
        payloadTexts[friend.person.id] = (friend.person, friend.fix, text)
        return text
    }

    /// A friend's fields; on the hub's queue (its one date formatter: making one per friend cost about 0.5 ms, and
    /// 1,000 streams opening with 80 friends each waited most of a minute for their `ready`).
    func payload(_ friend: VisibleFriend) -> [String: Any] {
        ["id": friend.person.id.rawValue, "name": friend.person.name, "lat": friend.fix.coordinate.lat,
         "lon": friend.fix.coordinate.lon, "at": dates.string(from: friend.fix.takenAt)]
    }

    /// One Server-Sent Event with a JSON payload (keys sorted).
    static func event(_ name: String, _ payload: Any) -> String {
        "event: \(name)\ndata: \(json(payload))\n\n"
    }

    static func json(_ payload: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension VisibleFriend {
    /// The friend with their Live Location left out: what `move` compares.
    var withoutLive: VisibleFriend {
        var friend = self
        friend.liveUntil = nil
        return friend
    }
}
