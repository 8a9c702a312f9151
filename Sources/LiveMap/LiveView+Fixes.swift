import Foundation

/// A kept fix applied without reading the store: the bus carries it to the other replicas, and the replica that wrote
/// it keeps it as the store does (to the millisecond). Store and view both keep the newer fix, so the order in which
/// fixes arrive changes nothing.
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
}
