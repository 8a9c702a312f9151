import Foundation

/// Per-person change counters, for caches of answers made from the view: a person's stamp moves whenever a change
/// that can alter what they see is applied (after it is applied), and everyone's moves when the view is loaded
/// again. An answer kept with the stamp read before it was made is current exactly while the stamp is unchanged.
final class ChangeStamps: @unchecked Sendable {
    private let lock = NSLock()
    private var counter: UInt64 = 0
    /// Every stamp is at least this: the counter at the last load.
    private var floor: UInt64 = 0
    private var last: [PersonID: UInt64] = [:]

    func stamp(of id: PersonID) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return max(last[id] ?? 0, floor)
    }

    func touch(_ ids: [PersonID]) {
        lock.lock()
        defer { lock.unlock() }
        counter += 1
        for id in ids { last[id] = counter }
    }

    func touchAll() {
        lock.lock()
        defer { lock.unlock() }
        counter += 1
        floor = counter
        last = [:]
    }
}

extension LiveView {
    /// The longest an answer kept under a stamp may be reused (kept answers are keyed by the minute they are made in).
    public static let keptAnswerLifetime: TimeInterval = 60

    /// The stamp of what `viewer` sees while the view is current (nil otherwise: answers then come from the store
    /// and may not be kept). Read it before reading the answer's facts; the answer may be reused while it is equal.
    public func answerStamp(of viewer: PersonID) -> UInt64? {
        guard isCurrent, serves(viewer) else { return nil }
        return stamps.stamp(of: viewer)
    }

    /// Must hold `refreshLock`, not `stateLock`. Each person whose answers `change` may reach, with the candidate
    /// they have of its other side as the view stands: everyone who asked a changed person, or both of a pair.
    func reached(by change: LiveChange) -> [(viewer: PersonID, other: PersonID, before: Candidate?)] {
        switch change {
        case .pair(let first, let second):
            return stateLock.read { [(first, second), (second, first)].map { ($0, $1, candidateHeld(viewer: $0, person: $1)) } }
        case .sessions: return []
        case .person(let id), .removed(let id):
            // One read for all of them, by slot: a move heard on the bus reaches ~100 askers, and each one's own lock
            // and id lookups were a third of applying it (the bus's threads share `refreshLock`).
            return stateLock.read {
                guard let slot = state.slots[id] else { return [] }
                return state.askedBy[Int(slot)].compactMap { asker in
                    state.people[Int(asker)].map { ($0.id, id, candidateHeld(viewer: $0.id, at: asker, target: slot)) }
                }
            }
        }
    }

    /// Must hold `refreshLock`, not `stateLock`; after `change` is applied. The people whose stamps move: the changed
    /// person themselves, and each reached viewer whose answers may differ within `keptAnswerLifetime`. A viewer from
    /// whom the other side is hidden before and after is not told: their answers are the same bytes,
    /// and answering them from the kept answer keeps its time the same too (a hidden friend's moves once made their
    /// next layout slower to answer).
    func viewersToTell(_ change: LiveChange, reached: [(viewer: PersonID, other: PersonID, before: Candidate?)], at now: Date) -> [PersonID] {
        let changed: [PersonID] = switch change {
        case .person(let id), .removed(let id), .sessions(let id): [id]
        case .pair: []
        }
        let afters = stateLock.read { reached.map { candidateHeld(viewer: $0.viewer, person: $0.other) } }
        return changed + zip(reached, afters).filter { reach, after in
            let before = reach.before
            let shown = (before.map { VisibilityRule.isVisible($0.facts, at: now) } ?? false) || (after.map { VisibilityRule.isVisible($0.facts, at: now) } ?? false)
            if shown { return before != after }
            // Hidden before and after: only a share with the viewer, or a timer that would show the person within a
            // kept answer's life (an operator's clock set back), is news to them. Timers further off are met by the
            // next answer (a Ghost timer is set hours ahead; a hidden friend changing theirs once slowed the viewer's).
            let soon = now.addingTimeInterval(Self.keptAnswerLifetime)
            let showingSoon = { (candidate: Candidate?) in candidate.map { VisibilityRule.timersThatShow($0.facts, after: now).filter { $0 < soon } } ?? [] }
            return before?.facts.live != after?.facts.live || showingSoon(before) != showingSoon(after)
        }.map(\.0.viewer)
    }
}
