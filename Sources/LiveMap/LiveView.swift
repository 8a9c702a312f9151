import Foundation

/// A bus that can say how current its listener is: the monotonic instant (`DispatchTime` nanoseconds) before which
/// every message published anywhere has been delivered here; nil until it first caught up.
public protocol BusLiveness: AnyObject, Sendable {
    var caughtUpAt: UInt64? { get }
}

/// One replica's in-memory view of the live state: people, their sharing and latest fix, and who asked whom with
/// the details and blocks the rule needs. It stands in front of the store: writes go to the store first and then
/// re-read what they touched; the reads the map needs (`candidates`, `candidate`, `viewers`, `fix`) come from
/// memory while the view is current, and from the store otherwise. The view is current when it is loaded and its
/// bus (if any) caught up within `stalenessBound`: a change made elsewhere shows here within that bound, or the
/// answers come from the store. Own writes, blocks and deletions apply at once. Time alone changes nothing here:
/// the facts carry their instants and the rule is asked at the caller's `now`.
public final class LiveView: @unchecked Sendable {
    /// The most a change made by another process may be missing from answers.
    public static let stalenessBound: Double = 1.0
    /// Friend details packed into 31 bits: the Snapstreak (at most 100,000 fits in 17) and the best-friend bit.
    static let bestBit: UInt32 = 1 << 20

    struct Ask {
        let to: Int32
        let packed: UInt32
        var details: FriendDetails { FriendDetails(snapstreak: Int(packed & (LiveView.bestBit - 1)), bestFriend: packed & LiveView.bestBit != 0) }
        init(to: Int32, details: FriendDetails) {
            self.to = to
            packed = UInt32(max(0, min(details.snapstreak, Int(LiveView.bestBit) - 1))) | (details.bestFriend ? LiveView.bestBit : 0)
        }
    }

    /// People by dense slot; a removed person's slot stays empty until the next full load.
    struct State {
        /// The partition whose viewers this state serves (nil: everyone), and whether it serves each slot.
        var partition: ViewPartition?
        var served: [Bool] = []
        var slots: [PersonID: Int32] = [:]
        var people: [Person?] = []
        var settings: [SharingSettings] = []
        var fixes: [LocationFix?] = []
        /// Each slot's birthday as `month << 5 | day`, 0 for none (two bytes a person).
        var birthdays: [UInt16] = []
        /// Asks out of each slot, sorted by target slot; and who asked each slot, sorted.
        var asks: [[Ask]] = []
        var askedBy: [[Int32]] = []
        /// Pairs (lower slot << 32 | higher) where one blocks the other (loaded by pages: those with asks only).
        var blocks = Set<UInt64>()
        /// Live Location shares by (sharer's slot << 32 | friend's slot).
        var live: [UInt64: LiveShare] = [:]
    }

    public let store: any LiveStore
    /// The viewers this view answers from memory (nil: everyone); see `LiveView+Partition`.
    public let partition: ViewPartition?
    let clock: @Sendable () -> Date
    let monotonic: @Sendable () -> UInt64
    /// Taken by every change of `state` and held across the store read it applies, so changes apply in order.
    let refreshLock = NSLock()
    let stateLock = ReadWriteLock()
    var state: State
    var loaded = false
    var liveness: (any BusLiveness)?
    var followsBus = false
    let stamps = ChangeStamps()
    let tokens = TokenCache()
    /// Loads asked for; (under `loadLock`) the requests the last successful load started after; (under
    /// `refreshLock`) whether a load is reading, and the changes applied meanwhile, to apply again on what it read.
    let requestLock = NSLock()
    var loadRequests: UInt64 = 0
    let loadLock = NSLock()
    var loadsCover: UInt64 = 0
    var loading = false
    var appliedWhileLoading: [LiveChange] = []
    let loader = DispatchQueue(label: "snapmap-view-load")

    /// A view in front of `store`, empty (answering from the store) until `load`. `clock` is the server's (the rule's
    /// time, when a change is weighed for who must hear of it); `monotonic` is the clock the staleness bound is
    /// measured on, nanoseconds (tests move it by hand).
    public init(store: any LiveStore, partition: ViewPartition? = nil, clock: @escaping @Sendable () -> Date = { Date() },
                monotonic: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.store = store
        self.partition = partition
        state = State(partition: partition)
        self.clock = clock
        self.monotonic = monotonic
    }

    /// The view from a store's whole reads: people, then asks, then blocks.
    static func readWhole(_ store: any WholeStoreReading, partition: ViewPartition?) throws -> State {
        var next = State(partition: partition)
        try store.readWhole(person: { person, settings, fix in _ = add(person, settings: settings, fix: fix, to: &next) }, ask: { from, to, details in
            guard let first = next.slots[from], let second = next.slots[to], next.holdsPair(first, second) else { return }
            setAsk(from: first, to: second, details, in: &next)
        }, block: { blocker, blocked in
            guard let first = next.slots[blocker], let second = next.slots[blocked], next.holdsPair(first, second) else { return }
            next.blocks.insert(pairKey(first, second))
        })
        try store.readBirthdays { id, birthday in
            guard let slot = next.slots[id] else { return }
            next.birthdays[Int(slot)] = packed(birthday)
        }
        try store.readLiveShares { share in
            guard let from = next.slots[share.from], let to = next.slots[share.to], next.holdsPair(from, to) else { return }
            next.live[directedKey(from, to)] = share
        }
        return next.pruned()
    }

    /// The view from the store's reads of each person: everyone first, then their asks.
    func readByPages() throws -> State {
        var next = State(partition: partition)
        try forEachPage { page in
            for person in page {
                let slot = Self.add(person, settings: try store.sharing(of: person.id) ?? .newPerson, fix: try store.fix(of: person.id), to: &next)
                next.birthdays[Int(slot)] = Self.packed(try store.birthday(of: person.id))
            }
        }
        try forEachPage { page in
            for person in page {
                guard let slot = next.slots[person.id], next.served[Int(slot)] else { continue }
                for candidate in try store.candidates(of: person.id) where candidate.facts.viewerAsked || next.partition != nil && candidate.facts.personAsked {
                    // Someone added since the first pass is added now, from the facts read with the ask.
                    let target = next.slots[candidate.person.id]
                        ?? Self.add(candidate.person, settings: candidate.facts.settings, fix: candidate.facts.fix, birthday: candidate.birthday, to: &next)
                    // A partition holds the asks its viewers are asked too (whose details only their askers' answers read).
                    if candidate.facts.personAsked, next.partition != nil, !next.served[Int(target)] { Self.setAsk(from: target, to: slot, FriendDetails(), in: &next) }
                    guard candidate.facts.viewerAsked else { continue }
                    Self.setAsk(from: slot, to: target, candidate.details, in: &next)
                    if candidate.facts.blocked { next.blocks.insert(Self.pairKey(slot, target)) }
                    if let share = candidate.facts.live { next.live[Self.directedKey(target, slot)] = share }
                }
            }
        }
        return next.pruned()
    }

    private func forEachPage(_ body: ([Person]) throws -> Void) throws {
        var after: PersonID?
        while true {
            let page = try store.people(after: after, limit: 1000)
            guard let last = page.last else { return }
            try body(page)
            after = last.id
        }
    }

    /// Whether answers come from memory now: loaded, and the bus (when followed) caught up within the bound.
    public var isCurrent: Bool {
        let current: (loaded: Bool, followsBus: Bool, liveness: (any BusLiveness)?) = stateLock.read { (self.loaded, self.followsBus, self.liveness) }
        guard current.loaded else { return false }
        guard current.followsBus else { return true }
        guard let caughtUp = current.liveness?.caughtUpAt else { return false }
        let now = monotonic()
        return now < caughtUp || Double(now - caughtUp) / 1e9 <= Self.stalenessBound
    }

    /// Follows `bus`: changes made elsewhere arrive through `hear`, and the view is current only while the bus
    /// reports that it caught up (a bus that cannot say so leaves every answer to the store). Loads the view (in the
    /// background, again each second, while the store cannot answer).
    public func follow(_ bus: any LiveBus) {
        stateLock.write {
            followsBus = true
            liveness = bus as? BusLiveness
        }
        if (try? load()) == nil { loadInBackground() }
    }

    /// Applies a message from another process before anyone is told of it. Told to resync, the view loads itself
    /// whole again in the background, and meanwhile the store answers, so a bus's listener never waits for a load.
    public func hear(_ message: LiveBusMessage) {
        switch message {
        case .change(let change): refresh(change)
        case .fix(let id, let fix): refresh(id, keeping: fix)
        case .resync: loadInBackground()
        case .snap, .order: break
        }
    }

    /// Re-reads from the store what `change` touched.
    func refresh(_ change: LiveChange) {
        refresh(change) { apply(change) }
    }

    /// Applies `change` by `body` under `refreshLock`, and moves the stamps of those it reached.
    func refresh(_ change: LiveChange, applying body: () -> Void) {
        refreshLock.lock()
        defer { refreshLock.unlock() }
        // Who the change may reach is known before it is applied; stamps move after, for those it reached.
        let reached = reached(by: change)
        // A load re-reads from the store each change heard meanwhile (the store has it by then).
        if loading { appliedWhileLoading.append(change) }
        body()
        stamps.touch(viewersToTell(change, reached: reached, at: clock()))
    }

    /// Must hold `refreshLock`. Re-reads what `change` touched into the view; one that cannot be re-read leaves the
    /// answers to the store until a load in the background succeeds.
    func apply(_ change: LiveChange) {
        do {
            switch change {
            case .person(let id): if follows(id) { try refreshPerson(id) }
            case .pair(let first, let second): if serves(first) || serves(second) { try refreshPair(first, second) }
            case .removed(let id):
                stateLock.write { Self.remove(id, from: &state) }
                tokens.forget(id)
            case .sessions(let id): tokens.forget(id)
            }
        } catch {
            // What could not be re-read cannot be vouched for: answer from the store until a full load succeeds.
            loadInBackground()
            stamps.touchAll()
        }
    }

    private func refreshPair(_ first: PersonID, _ second: PersonID) throws {
        let forward = try store.candidate(viewer: first, person: second)
        let backward = try store.candidate(viewer: second, person: first)
        if stateLock.read({ state.slots[first] == nil || state.slots[second] == nil }) {
            try refreshPerson(first)
            try refreshPerson(second)
        }
        stateLock.write {
            guard let a = state.slots[first], let b = state.slots[second] else { return }
            for (from, to, candidate) in [(a, b, forward), (b, a, backward)] {
                if let candidate, candidate.facts.viewerAsked { Self.setAsk(from: from, to: to, candidate.details, in: &state) } else { Self.removeAsk(from: from, to: to, in: &state) }
            }
            if forward?.facts.blocked == true || backward?.facts.blocked == true { state.blocks.insert(Self.pairKey(a, b)) } else { state.blocks.remove(Self.pairKey(a, b)) }
            // The forward candidate carries the second's share with the first, the backward one the first's with the second.
            state.live[Self.directedKey(b, a)] = forward?.facts.live
            state.live[Self.directedKey(a, b)] = backward?.facts.live
        }
    }

    static func packed(_ birthday: Birthday?) -> UInt16 { birthday.map { UInt16($0.month << 5 | $0.day) } ?? 0 }
    static func unpacked(_ packed: UInt16) -> Birthday? { packed == 0 ? nil : try? Birthday(month: Int(packed >> 5), day: Int(packed & 31)) }

    static func pairKey(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b))) }
    static func directedKey(_ from: Int32, _ to: Int32) -> UInt64 { UInt64(UInt32(from)) << 32 | UInt64(UInt32(to)) }

    static func add(_ person: Person, settings: SharingSettings, fix: LocationFix?, birthday: Birthday? = nil, to state: inout State) -> Int32 {
        let slot = Int32(state.people.count)
        state.slots[person.id] = slot
        state.served.append(state.partition?.serves(person.id) ?? true)
        state.people.append(person)
        state.settings.append(settings)
        state.fixes.append(fix)
        state.birthdays.append(packed(birthday))
        state.asks.append([])
        state.askedBy.append([])
        return slot
    }

    static func remove(_ id: PersonID, from state: inout State) {
        guard let slot = state.slots.removeValue(forKey: id) else { return }
        for ask in state.asks[Int(slot)] { removeSorted(slot, from: &state.askedBy[Int(ask.to)]) }
        for asker in state.askedBy[Int(slot)] { state.asks[Int(asker)].removeAll { $0.to == slot } }
        state.blocks = state.blocks.filter { UInt32(truncatingIfNeeded: $0 >> 32) != UInt32(slot) && UInt32(truncatingIfNeeded: $0) != UInt32(slot) }
        state.live = state.live.filter { UInt32(truncatingIfNeeded: $0.key >> 32) != UInt32(slot) && UInt32(truncatingIfNeeded: $0.key) != UInt32(slot) }
        state.people[Int(slot)] = nil
        state.fixes[Int(slot)] = nil
        state.birthdays[Int(slot)] = 0
        state.asks[Int(slot)] = []
        state.askedBy[Int(slot)] = []
    }

    static func setAsk(from: Int32, to: Int32, _ details: FriendDetails, in state: inout State) {
        let ask = Ask(to: to, details: details)
        let index = state.asks[Int(from)].partitioningIndex { $0.to >= to }
        if index < state.asks[Int(from)].count, state.asks[Int(from)][index].to == to {
            state.asks[Int(from)][index] = ask
        } else {
            state.asks[Int(from)].insert(ask, at: index)
            let at = state.askedBy[Int(to)].partitioningIndex { $0 >= from }
            state.askedBy[Int(to)].insert(from, at: at)
        }
    }

    static func removeAsk(from: Int32, to: Int32, in state: inout State) {
        let index = state.asks[Int(from)].partitioningIndex { $0.to >= to }
        guard index < state.asks[Int(from)].count, state.asks[Int(from)][index].to == to else { return }
        state.asks[Int(from)].remove(at: index)
        removeSorted(from, from: &state.askedBy[Int(to)])
    }

    static func removeSorted(_ value: Int32, from array: inout [Int32]) {
        let index = array.partitioningIndex { $0 >= value }
        if index < array.count, array[index] == value { array.remove(at: index) }
    }
}
