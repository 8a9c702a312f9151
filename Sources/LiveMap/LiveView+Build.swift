import Foundation

/// A view built in memory from a world handed over whole (`SyntheticWorld.load(into:)`), for worlds no store here
/// holds (the memory benchmark's million people): it answers from what it was given, as a loaded view does (a
/// partition keeps the asks of its viewers, both ways, and drops the people it does not need at `compact`).
extension LiveView: WorldLoading {
    public func bulkLoad(people: [(Person, SharingSettings)], asks: [(from: PersonID, to: PersonID, details: FriendDetails)],
                         fixes: [(PersonID, LocationFix)], tokenHashes: [(String, PersonID)]) throws {
        refreshLock.lock()
        defer { refreshLock.unlock() }
        stateLock.write {
            for (person, settings) in people where state.slots[person.id] == nil { _ = Self.add(person, settings: settings, fix: nil, to: &state) }
            for ask in asks {
                guard let from = state.slots[ask.from], let to = state.slots[ask.to], state.holdsPair(from, to) else { continue }
                Self.setAsk(from: from, to: to, ask.details, in: &state)
            }
            for (id, fix) in fixes {
                if let slot = state.slots[id] { state.fixes[Int(slot)] = fix }
            }
            loaded = true
        }
        stamps.touchAll()
    }

    /// Cuts every list to its length (lists grown one entry at a time keep up to twice the room they need); a partition
    /// also drops the people it was handed that none of its viewers asks or is asked by.
    public func compact() {
        refreshLock.lock()
        defer { refreshLock.unlock() }
        stateLock.write {
            state = state.pruned()
            state.compact()
        }
    }
}
