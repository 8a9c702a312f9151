import Foundation
import GeoCore

/// The view as a store: every write goes to the store and then re-reads what it touched (so this replica's own
/// changes, blocks and deletions included, show at once); the map's reads come from memory while the view is
/// current, and from the store otherwise; everything else is the store's.
extension LiveView: LiveStore {
    public func addPerson(_ person: Person, settings: SharingSettings) throws -> Bool {
        defer { refresh(.person(person.id)) }
        return try store.addPerson(person, settings: settings)
    }

    /// The store's: someone added elsewhere is announced to nobody until they change, and the view may not know them.
    public func person(_ id: PersonID) throws -> Person? { try store.person(id) }

    public func people(after: PersonID?, limit: Int) throws -> [Person] { try store.people(after: after, limit: limit) }

    public func addAsk(from: PersonID, to: PersonID, details: FriendDetails) throws {
        defer { refresh(.pair(from, to)) }
        try store.addAsk(from: from, to: to, details: details)
    }

    public func removeAsks(between first: PersonID, and second: PersonID) throws {
        defer { refresh(.pair(first, second)) }
        try store.removeAsks(between: first, and: second)
    }

    public func asks(from: PersonID, to: PersonID) throws -> Bool { try store.asks(from: from, to: to) }

    public func addBlock(by blocker: PersonID, on blocked: PersonID) throws {
        defer { refresh(.pair(blocker, blocked)) }
        try store.addBlock(by: blocker, on: blocked)
    }

    public func removeBlock(by blocker: PersonID, on blocked: PersonID) throws -> Bool {
        defer { refresh(.pair(blocker, blocked)) }
        return try store.removeBlock(by: blocker, on: blocked)
    }

    public func blocked(between first: PersonID, and second: PersonID) throws -> Bool { try store.blocked(between: first, and: second) }
    public func standing(of other: PersonID, for me: PersonID) throws -> Standing? { try store.standing(of: other, for: me) }
    public func relations(of id: PersonID) throws -> [Relation] { try store.relations(of: id) }
    public func related(to id: PersonID) throws -> [PersonID] { try store.related(to: id) }

    public func sharing(of id: PersonID) throws -> SharingSettings? { try store.sharing(of: id) }
    public func birthday(of id: PersonID) throws -> Birthday? { try store.birthday(of: id) }

    public func setBirthday(_ birthday: Birthday?, of id: PersonID) throws {
        defer { refresh(.person(id)) }
        try store.setBirthday(birthday, of: id)
    }

    public func setSharing(_ settings: SharingSettings, of id: PersonID) throws {
        defer { refresh(.person(id)) }
        try store.setSharing(settings, of: id)
    }

    /// A kept fix is applied as the store keeps it, without reading it back; a failed write (which may have been
    /// applied) re-reads the person.
    public func recordFix(_ fix: LocationFix, of id: PersonID) throws -> Bool {
        let kept: Bool
        do {
            kept = try store.recordFix(fix, of: id)
        } catch {
            refresh(.person(id))
            throw error
        }
        if kept { refresh(id, keeping: fix.asStored) }
        return kept
    }

    public func fix(of id: PersonID) throws -> LocationFix? {
        guard isCurrent else { return try store.fix(of: id) }
        let held: LocationFix?? = stateLock.read { state.slots[id].map { state.fixes[Int($0)] } }
        // Unpartitioned, someone not held does not exist; a partition asks the store of people it does not hold.
        if let held { return held }
        return partition == nil ? nil : try store.fix(of: id)
    }

    public func recordFix(_ fix: LocationFix, of id: PersonID, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        store.recordFix(fix, of: id) { [weak self] result in
            switch result {
            case .success(true): self?.refresh(id, keeping: fix.asStored)
            case .success(false): break
            case .failure: self?.refresh(.person(id))
            }
            completion(result)
        }
    }

    public func setLiveShare(_ share: LiveShare) throws {
        defer { refresh(.pair(share.from, share.to)) }
        try store.setLiveShare(share)
    }

    public func removeLiveShare(from: PersonID, to: PersonID) throws -> Bool {
        defer { refresh(.pair(from, to)) }
        return try store.removeLiveShare(from: from, to: to)
    }

    public func liveShares(of id: PersonID) throws -> [LiveShare] { try store.liveShares(of: id) }

    public func footstepsOn(_ id: PersonID) throws -> Bool { try store.footstepsOn(id) }
    public func setFootsteps(on: Bool, of id: PersonID) throws { try store.setFootsteps(on: on, of: id) }
    public func footsteps(of id: PersonID) throws -> [Footstep] { try store.footsteps(of: id) }
    public func footsteps(of id: PersonID, in box: GeoBoundingBox) throws -> [Coordinate] { try store.footsteps(of: id, in: box) }
    public func clearFootsteps(of id: PersonID) throws -> Int { try store.clearFootsteps(of: id) }

    public func addToken(hash: String, for id: PersonID) throws { try store.addToken(hash: hash, for: id) }

    /// From memory while the view is current (`TokenCache`: a token is forgotten once a sign-out, revocation or deletion
    /// of its person is applied here, made by this replica or heard from another); from the store otherwise.
    public func tokenOwner(hash: String) throws -> PersonID? {
        guard isCurrent else { return try store.tokenOwner(hash: hash) }
        if let owner = tokens.owner(of: hash) { return owner }
        let stamp = tokens.stamp
        guard let owner = try store.tokenOwner(hash: hash) else { return nil }
        tokens.keep(hash, for: owner, readAt: stamp)
        return owner
    }

    public func revokeTokens(of id: PersonID) throws -> Int {
        defer { refresh(.sessions(id)) }
        return try store.revokeTokens(of: id)
    }

    public func removeToken(hash: String) throws -> PersonID? {
        let owner: PersonID?
        do {
            owner = try store.removeToken(hash: hash)
        } catch {
            tokens.forget(hash: hash)
            throw error
        }
        if let owner { refresh(.sessions(owner)) }
        return owner
    }

    public func removePerson(_ id: PersonID) throws -> Bool {
        defer { refresh(.removed(id)) }
        return try store.removePerson(id)
    }

    public func finishInterruptedRemovals() throws -> [PersonID] {
        let finished = try store.finishInterruptedRemovals()
        for id in finished { refresh(.removed(id)) }
        return finished
    }

    public func addSnaps(_ snaps: [PublicSnap]) throws { try store.addSnaps(snaps) }
    public func addSnap(_ snap: PublicSnap, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) { store.addSnap(snap, completion: completion) }
    public func snaps(since: Date) throws -> [PublicSnap] { try store.snaps(since: since) }
    public func pruneSnaps(before: Date) throws -> Int { try store.pruneSnaps(before: before) }
    public func health() -> StoreHealth { store.health() }
    public func hurried<T>(_ body: () throws -> T) rethrows -> T { try store.hurried(body) }

    public func candidates(of viewer: PersonID) throws -> [Candidate] {
        guard isCurrent, serves(viewer) else { return try store.candidates(of: viewer) }
        return stateLock.read {
            guard let slot = state.slots[viewer] else { return [] }
            return state.asks[Int(slot)].compactMap { ask in makeCandidate(viewer: viewer, slot, ask.to, ask: ask) }
        }
    }

    public func viewers(of person: PersonID) throws -> [Candidate] {
        guard isCurrent else { return try store.viewers(of: person) }
        return stateLock.read {
            guard let slot = state.slots[person] else { return [] }
            return state.askedBy[Int(slot)].compactMap { asker in
                guard state.served[Int(asker)], let viewer = state.people[Int(asker)]?.id, let ask = findAsk(from: asker, to: slot) else { return nil }
                return makeCandidate(viewer: viewer, asker, slot, ask: ask)
            }
        }
    }

    public func candidate(viewer: PersonID, person: PersonID) throws -> Candidate? {
        guard isCurrent, serves(viewer) else { return try store.candidate(viewer: viewer, person: person) }
        if let held = heldCandidate(viewer: viewer, person: person) { return held }
        return partition == nil ? nil : try store.candidate(viewer: viewer, person: person)
    }

    /// The facts of `person` as `viewer` sees them in memory, current or not; must not hold `stateLock`.
    func heldCandidate(viewer: PersonID, person: PersonID) -> Candidate? {
        stateLock.read { candidateHeld(viewer: viewer, person: person) }
    }

    /// Must hold `stateLock`. `heldCandidate`, under a lock already taken.
    func candidateHeld(viewer: PersonID, person: PersonID) -> Candidate? {
        guard let target = state.slots[person], let slot = state.slots[viewer] else { return nil }
        return candidateHeld(viewer: viewer, at: slot, target: target)
    }

    /// Must hold `stateLock`. The candidate `viewer` (at `slot`) has of the person at `target`, by slots.
    func candidateHeld(viewer: PersonID, at slot: Int32, target: Int32) -> Candidate? {
        makeCandidate(viewer: viewer, slot, target, ask: findAsk(from: slot, to: target))
    }

    /// Must hold `stateLock`. The candidate of `target` as `viewer` (at `slot`) sees them, `ask` being the viewer's of them.
    private func makeCandidate(viewer: PersonID, _ slot: Int32, _ target: Int32, ask: Ask?) -> Candidate? {
        guard let person = state.people[Int(target)], let facts = factsHeld(viewer: viewer, at: slot, target: target, ask: ask) else { return nil }
        return Candidate(person: person, facts: facts, details: ask?.details ?? FriendDetails(), birthday: Self.unpacked(state.birthdays[Int(target)]))
    }

    /// Must hold `stateLock`. The facts of `target` as `viewer` (at `slot`) sees them.
    func factsHeld(viewer: PersonID, at slot: Int32, target: Int32) -> VisibilityFacts? {
        factsHeld(viewer: viewer, at: slot, target: target, ask: findAsk(from: slot, to: target))
    }

    /// Must hold `stateLock`. The facts of `target` as `viewer` (at `slot`) sees them, `ask` being the viewer's of them.
    private func factsHeld(viewer: PersonID, at slot: Int32, target: Int32, ask: Ask?) -> VisibilityFacts? {
        guard let person = state.people[Int(target)] else { return nil }
        return VisibilityFacts(viewer: viewer, person: person.id, viewerAsked: ask != nil, personAsked: findAsk(from: target, to: slot) != nil,
                               blocked: state.blocks.contains(Self.pairKey(slot, target)),
                               settings: state.settings[Int(target)], fix: state.fixes[Int(target)],
                               live: state.live[Self.directedKey(target, slot)])
    }

    /// Must hold `stateLock`.
    private func findAsk(from: Int32, to: Int32) -> Ask? {
        let asks = state.asks[Int(from)]
        let index = asks.partitioningIndex { $0.to >= to }
        return index < asks.count && asks[index].to == to ? asks[index] : nil
    }
}
