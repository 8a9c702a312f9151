import Foundation

/// A kept fix applied without reading the store: the bus carries it to the other replicas, and the replica that wrote
/// it keeps it as the store does (to the millisecond). Store and view both keep the newer fix, so the order in which
/// fixes arrive changes nothing. Any other change of a person re-reads them whole.
extension LiveView {
    /// Who a fix must be told to, worked out from the slots without building anyone's candidate: a move heard on the
    /// bus reaches ~100 askers, and building each one's candidate before and after the move was most of a replica's
    /// bus time (~0.4 ms a move at 100,000 people), enough that a loaded replica fell seconds behind its bus.
    struct FixReach {
        let slot: Int32
        /// Whether the fix is newer than the held one (only then is it kept).
        let newer: Bool
        let told: [PersonID]
    }

    /// Keeps `fix` as `id`'s when it is newer than the held one; reads `id` from the store when the view does not hold
    /// them (someone added elsewhere), as for any change of a person.
    func refresh(_ id: PersonID, keeping fix: LocationFix) {
        let held: Bool = refreshLock.withLock {
            let now = clock()
            guard let reach = stateLock.read({ fixReach(id, keeping: fix, at: now) }) else { return false }
            // A load re-reads from the store each change heard meanwhile (the store has it by then).
            if loading { appliedWhileLoading.append(.person(id)) }
            if reach.newer { stateLock.write { state.fixes[Int(reach.slot)] = fix } }
            stamps.touch(reach.told)
            return true
        }
        if !held { refresh(.person(id)) }
    }

    /// Must hold `stateLock`. Whom keeping `fix` as `id`'s tells, by the rule `viewersToTell` applies to any change
    /// (nil when the view does not hold `id`). Only the fix differs before and after, so an asker is told exactly when
    /// the rule lets them see `id` apart from the fix, and the held or the new fix is current at `now`; the timers
    /// that would show a hidden person do not depend on the fix. The person themselves is always told.
    func fixReach(_ id: PersonID, keeping fix: LocationFix, at now: Date) -> FixReach? {
        guard let slot = state.slots[id] else { return nil }
        let held = state.fixes[Int(slot)]
        guard held.map({ $0.takenAt < fix.takenAt }) ?? true else { return FixReach(slot: slot, newer: false, told: [id]) }
        guard held.map({ VisibilityRule.isCurrent($0, at: now) }) ?? false || VisibilityRule.isCurrent(fix, at: now) else {
            return FixReach(slot: slot, newer: true, told: [id])
        }
        let askers = state.askedBy[Int(slot)].compactMap { asker -> PersonID? in
            guard let viewer = state.people[Int(asker)]?.id, let facts = factsHeld(viewer: viewer, at: asker, target: slot) else { return nil }
            return VisibilityRule.allowsSight(facts, at: now) ? viewer : nil
        }
        return FixReach(slot: slot, newer: true, told: [id] + askers)
    }

    /// Must hold `refreshLock`. Re-reads `id` whole (one round on a store that reads whole), or drops them when gone.
    func refreshPerson(_ id: PersonID) throws {
        let read = try (store as? any WholeStoreReading).map { try $0.readPerson(id) }
            ?? store.person(id).flatMap { person in
                try store.sharing(of: id).map { (person, $0, try store.fix(of: id), try store.birthday(of: id)) }
            }
        guard let (person, settings, fix, birthday) = read else { return stateLock.write { Self.remove(id, from: &state) } }
        stateLock.write {
            if let slot = state.slots[id] {
                state.people[Int(slot)] = person
                state.settings[Int(slot)] = settings
                state.fixes[Int(slot)] = fix
                state.birthdays[Int(slot)] = Self.packed(birthday)
            } else {
                _ = Self.add(person, settings: settings, fix: fix, birthday: birthday, to: &state)
            }
        }
    }
}
