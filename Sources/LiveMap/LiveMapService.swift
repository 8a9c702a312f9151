import Foundation

/// A friend the viewer may see now: who, where, and the viewer's details of the friendship.
public struct VisibleFriend: Hashable, Sendable {
    public let person: Person
    public let fix: LocationFix
    public let details: FriendDetails
    /// The end of the person's Live Location share with the viewer, while it runs.
    public var liveUntil: Date? = nil
    /// The Actionmoji pose, from this fix and the person's birthday at the time the friend was seen.
    public var pose: Pose = .standing
}

/// A change whose effect on what people see must be re-evaluated.
public enum LiveChange: Hashable, Sendable {
    /// A person's fix or sharing settings changed: everyone related to them may see them differently.
    case person(PersonID)
    /// The relation between two people changed (asks or blocks): each may see the other differently.
    case pair(PersonID, PersonID)
    /// A person's sign-in tokens changed (one or all revoked): their open streams check theirs again.
    case sessions(PersonID)
    /// A person was removed with everything of theirs: their streams end, and they leave everyone's map.
    case removed(PersonID)
}

/// The live map's rules over a store: validation, friendships, blocks, sharing, locations, sign-in tokens and
/// what each viewer may see (through `VisibilityRule` only). A refused change changes nothing.
public final class LiveMapService: Sendable {
    public static let palette = ["#0EADFF", "#F23C57", "#00B8A9", "#A05DCD", "#FF8A00", "#3CC28A", "#FF5FA2", "#5C6BC0"]
    public static let maxPageSize = 1000

    public let store: any LiveStore
    let observers = ObserverList<LiveChange>()
    let snapObservers = ObserverList<PublicSnap>()
    let orderObservers = ObserverList<OrderNotice>()
    let fixObservers = ObserverList<(PersonID, LocationFix)>()
    let resyncObservers = ObserverList<Void>()
    let busHolder = BusHolder()

    public init(store: any LiveStore) {
        self.store = store
    }

    /// Calls `observer` after every change that can alter what someone sees.
    public func observe(_ observer: @escaping @Sendable (LiveChange) -> Void) {
        observers.add(observer)
    }

    // MARK: people

    /// Adds a person (sharing off, as for every new person); a taken id is a conflict.
    @discardableResult
    public func addPerson(id: String, name: String, color: String? = nil, avatar: String? = nil) throws -> Person {
        let personID = try PersonID(id)
        let person = try Person(id: personID, name: name, color: color ?? Self.defaultColor(for: personID), avatar: avatar)
        guard try store.addPerson(person, settings: .newPerson) else { throw LiveMapError.conflict(message: "id \"\(id)\" is taken") }
        return person
    }

    /// The person with an id (for the operator); unknown ids are `notFound`.
    public func person(_ id: String) throws -> Person {
        let personID = try PersonID(id)
        guard let person = try store.person(personID) else { throw LiveMapError.notFound(id: id) }
        return person
    }

    public func people(after: String? = nil, limit: Int = maxPageSize) throws -> [Person] {
        try store.people(after: after.map { try PersonID($0, field: "after") }, limit: min(max(limit, 1), Self.maxPageSize))
    }

    // MARK: sharing and locations

    public func sharing(of me: PersonID) throws -> SharingSettings {
        guard let settings = try store.sharing(of: me) else { throw LiveMapError.notFound(id: me.rawValue) }
        return settings
    }

    /// Replaces the parts of the settings that are given; timers start at `now`.
    @discardableResult
    public func setSharing(_ me: PersonID, ghost: String?, audience: (mode: String, ids: [String])?, now: Date) throws -> SharingSettings {
        var settings = try sharing(of: me)
        if let ghost { settings.ghost = try GhostMode.parse(ghost, now: now) }
        if let audience { settings.audience = try Audience.parse(mode: audience.mode, ids: audience.ids) }
        try store.setSharing(settings, of: me)
        notify(.person(me))
        return settings
    }

    /// Records a fix; one taken more than a minute after `now` is refused; one older than the stored fix is
    /// ignored (returns false), so updates are idempotent and ordered by their own time.
    @discardableResult
    public func updateLocation(_ me: PersonID, fix: LocationFix, now: Date) throws -> Bool {
        try Self.checkFixTime(fix.takenAt, now: now)
        let kept = try store.recordFix(fix, of: me)
        if kept { notify(.person(me)) }
        return kept
    }

    /// `updateLocation` without waiting for the store: checks first (throwing at once), then `completion` gets
    /// whether the fix was kept once it is durable.
    public func updateLocation(_ me: PersonID, fix: LocationFix, now: Date, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) throws {
        try Self.checkFixTime(fix.takenAt, now: now)
        store.recordFix(fix, of: me) { [observers, busHolder] result in
            if case .success(true) = result {
                observers.send(.person(me))
                busHolder.publish(.change(.person(me)))
            }
            completion(result)
        }
    }

    /// Throws unless a fix taken at `takenAt` may be recorded at `now`: inside the rule's window, so that no store
    /// keeps a fix that could never show and a refused one never looks accepted.
    public static func checkFixTime(_ takenAt: Date, now: Date) throws(LiveMapError) {
        guard takenAt <= now.addingTimeInterval(VisibilityRule.maxFixLead) else {
            throw .invalid(field: "at", message: "is more than \(Int(VisibilityRule.maxFixLead)) s after the server's clock")
        }
        guard takenAt > now.addingTimeInterval(-VisibilityRule.maxFixAge) else {
            throw .invalid(field: "at", message: "is more than \(Int(VisibilityRule.maxFixAge / 3600)) hours before the server's clock")
        }
    }

    /// A person's own latest fix when it still counts at `now` (for the distance on a card); nil otherwise.
    public func ownFix(of me: PersonID, at now: Date) throws -> LocationFix? {
        try store.fix(of: me).flatMap { VisibilityRule.isCurrent($0, at: now) ? $0 : nil }
    }

    // MARK: what a viewer sees

    /// The friends `viewer` sees at `now`, in id order: exactly those the visibility rule allows.
    public func visibleFriends(of viewer: PersonID, at now: Date) throws -> [VisibleFriend] {
        var clock = PoseClock(now: now)
        return try store.candidates(of: viewer).compactMap { Self.visible($0, clock: &clock) }
    }

    /// One person as `viewer` sees them at `now`; nil when hidden or unknown (the two are the same answer).
    public func visibleFriend(_ person: PersonID, of viewer: PersonID, at now: Date) throws -> VisibleFriend? {
        try store.candidate(viewer: viewer, person: person).flatMap { Self.visible($0, at: now) }
    }

    /// The friend a candidate is at `now`, when the rule lets them be seen.
    public static func visible(_ candidate: Candidate, at now: Date) -> VisibleFriend? {
        var clock = PoseClock(now: now)
        return visible(candidate, clock: &clock)
    }

    /// The friend a candidate is at `clock`'s reading, when the rule lets them be seen (many candidates, one clock).
    public static func visible(_ candidate: Candidate, clock: inout PoseClock) -> VisibleFriend? {
        let now = clock.now
        guard VisibilityRule.isVisible(candidate.facts, at: now), let fix = candidate.facts.fix else { return nil }
        let liveUntil = VisibilityRule.isLive(candidate.facts, at: now) ? candidate.facts.live?.until : nil
        return VisibleFriend(person: candidate.person, fix: fix, details: candidate.details, liveUntil: liveUntil,
                             pose: PoseRule.pose(fix: fix, birthday: candidate.birthday, clock: &clock))
    }

    func notify(_ change: LiveChange) {
        observers.send(change)
        busHolder.publish(.change(change))
    }

    static func defaultColor(for id: PersonID) -> String {
        palette[Int(id.rawValue.utf8.reduce(UInt32(0)) { $0 &* 31 &+ UInt32($1) } % UInt32(palette.count))]
    }
}

/// Observers called in the order they were added; safe to add from any thread.
final class ObserverList<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [@Sendable (Value) -> Void] = []

    func add(_ observer: @escaping @Sendable (Value) -> Void) {
        lock.lock()
        observers.append(observer)
        lock.unlock()
    }

    func send(_ value: Value) {
        lock.lock()
        let current = observers
        lock.unlock()
        for observer in current { observer(value) }
    }
}
