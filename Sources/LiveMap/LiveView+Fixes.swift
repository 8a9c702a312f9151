import Foundation

/// A kept fix applied without reading the store: the bus carries it to the other replicas, and the replica that wrote
/// it keeps it as the store does (to the millisecond). Store and view both keep the newer fix, so the order in which
/// fixes arrive changes nothing. Any other change of a person re-reads them whole.
extension LiveView {
    /// Keeps `fix` as `id`'s when it is newer than the held one; reads `id` from the store when the view does not hold
    /// them (someone added elsewhere), as for any change of a person.
    func refresh(_ id: PersonID, keeping fix: LocationFix) {
        refresh(.person(id)) {
            let held = stateLock.write { () -> Bool in
                guard let slot = state.slots[id] else { return false }
                if state.fixes[Int(slot)].map({ $0.takenAt < fix.takenAt }) ?? true { state.fixes[Int(slot)] = fix }
                return true
            }
            if !held { apply(.person(id)) }
        }
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
