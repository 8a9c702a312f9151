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
    /// The stamp of what `viewer` sees while the view is current (nil otherwise: answers then come from the store
    /// and may not be kept). Read it before reading the answer's facts; the answer may be reused while it is equal.
    public func answerStamp(of viewer: PersonID) -> UInt64? {
        guard isCurrent else { return nil }
        return stamps.stamp(of: viewer)
    }

    /// Must not hold `stateLock`. The people whose answers `change` can alter as the view stands: the person and
    /// everyone who asked them (whose candidates they are), or both of a pair.
    func touched(by change: LiveChange) -> [PersonID] {
        switch change {
        case .pair(let first, let second): return [first, second]
        case .sessions(let id): return [id]
        case .person(let id), .removed(let id):
            return stateLock.read {
                guard let slot = state.slots[id] else { return [id] }
                return [id] + state.askedBy[Int(slot)].compactMap { state.people[Int($0)]?.id }
            }
        }
    }
}
