import Foundation

/// A view of one partition's viewers (`ViewPartition`): it holds those viewers, the asks out of them and into them,
/// the people at the other end of those asks with their facts, and the blocks and Live Location shares between the
/// two; nothing else. It answers from memory only questions about its own viewers (their candidates, a person's
/// viewers among them, their answer stamps); any other viewer's answer, and any fact of someone it does not hold,
/// comes from the store, so a partial view never answers for a viewer whose friends it may lack. Changes heard on the
/// bus about people it neither holds nor serves are dropped; a pair change reaching one of its viewers brings the other
/// side in. Someone who stops being anyone's friend here stays held (facts only) until the next load.
extension LiveView {
    /// Whether this view answers `viewer`'s map from memory: its partition serves them (every viewer when unpartitioned).
    public func serves(_ viewer: PersonID) -> Bool { partition?.serves(viewer) ?? true }

    /// How many people the view holds now (its viewers and the people they ask or are asked by).
    public var heldPeople: Int { stateLock.read { state.slots.count } }

    /// Whether a change of `id` can reach what this view holds: they are held, or served (someone new).
    func follows(_ id: PersonID) -> Bool { serves(id) || stateLock.read { state.slots[id] != nil } }
}

extension LiveView.State {
    /// Whether a fact between two slots (an ask, a block, a share) is held: one of them is served.
    func holdsPair(_ a: Int32, _ b: Int32) -> Bool { served[Int(a)] || served[Int(b)] }

    /// The state without the people a partition does not need: those neither served nor at an end of a held ask. Slots
    /// are renumbered in order, so each list stays sorted. Unpartitioned, the state as it is.
    func pruned() -> LiveView.State {
        guard partition != nil else { return self }
        var renumbered = [Int32](repeating: -1, count: people.count)
        var next = LiveView.State(partition: partition)
        for slot in people.indices {
            guard let person = people[slot], served[slot] || !asks[slot].isEmpty || !askedBy[slot].isEmpty else { continue }
            renumbered[slot] = Int32(next.people.count)
            next.slots[person.id] = renumbered[slot]
            next.served.append(served[slot])
            next.people.append(person)
            next.settings.append(settings[slot])
            next.fixes.append(fixes[slot])
            next.birthdays.append(birthdays[slot])
        }
        for slot in people.indices where renumbered[slot] >= 0 {
            next.asks.append(asks[slot].map { LiveView.Ask(to: renumbered[Int($0.to)], packed: $0.packed) })
            next.askedBy.append(askedBy[slot].map { renumbered[Int($0)] })
        }
        func renumber(_ key: UInt64) -> UInt64? {
            let (high, low) = (renumbered[Int(key >> 32)], renumbered[Int(key & 0xFFFF_FFFF)])
            return high < 0 || low < 0 ? nil : UInt64(UInt32(high)) << 32 | UInt64(UInt32(low))
        }
        next.blocks = Set(blocks.compactMap(renumber))
        for (key, share) in live { if let key = renumber(key) { next.live[key] = share } }
        return next
    }
}

extension LiveView.Ask {
    init(to: Int32, packed: UInt32) {
        self.to = to
        self.packed = packed
    }
}
