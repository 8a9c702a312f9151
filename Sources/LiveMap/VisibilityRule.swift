import Foundation

/// Everything the visibility rule looks at for one viewer and one person, as a store reads it.
public struct VisibilityFacts: Hashable, Sendable {
    public let viewer: PersonID
    public let person: PersonID
    /// The viewer asked the person to be friends (or accepted), and the person the viewer.
    public let viewerAsked: Bool
    public let personAsked: Bool
    /// Either blocks the other.
    public let blocked: Bool
    /// The person's sharing settings and latest fix.
    public let settings: SharingSettings
    public let fix: LocationFix?
    /// The person's Live Location share with the viewer, if they have one (running, paused or past its end).
    public let live: LiveShare?

    public init(viewer: PersonID, person: PersonID, viewerAsked: Bool, personAsked: Bool, blocked: Bool,
                settings: SharingSettings, fix: LocationFix?, live: LiveShare? = nil) {
        self.viewer = viewer
        self.person = person
        self.viewerAsked = viewerAsked
        self.personAsked = personAsked
        self.blocked = blocked
        self.settings = settings
        self.fix = fix
        self.live = live
    }
}

/// The privacy rule, in one place: viewer V sees person F at server time t exactly when V ≠ F, they are mutual
/// friends, neither blocks the other, F's latest fix was taken in (t − 24 h, t + 60 s], and either F is not in
/// Ghost Mode at t and V is in F's audience, or F shares Live Location with V at t (not paused, before its end).
/// Every output of the map goes through it.
public enum VisibilityRule {
    /// A fix older than this hides its person.
    public static let maxFixAge: TimeInterval = 24 * 3600
    /// A fix further ahead of the server's clock than this is refused (and would not show).
    public static let maxFixLead: TimeInterval = 60

    public static func isVisible(_ facts: VisibilityFacts, at now: Date) -> Bool {
        guard let fix = facts.fix, isCurrent(fix, at: now) else { return false }
        return allowsSight(facts, at: now)
    }

    /// The rule without its clause on the fix: whether the viewer would see the person at `now` were their fix current.
    public static func allowsSight(_ facts: VisibilityFacts, at now: Date) -> Bool {
        guard facts.viewer != facts.person, facts.viewerAsked, facts.personAsked, !facts.blocked else { return false }
        return isLive(facts, at: now) || !facts.settings.ghost.isOn(at: now) && facts.settings.audience.includes(facts.viewer)
    }

    /// Whether the person shares Live Location with the viewer at `now` (the card says "Live · until …" only when
    /// the person is also visible).
    public static func isLive(_ facts: VisibilityFacts, at now: Date) -> Bool {
        facts.live?.isRunning(at: now) ?? false
    }

    /// Whether a fix counts at `now`: taken in (now − 24 h, now + 60 s]. A person's own fix (the card's distance)
    /// counts on the same terms.
    public static func isCurrent(_ fix: LocationFix, at now: Date) -> Bool {
        fix.takenAt > now.addingTimeInterval(-maxFixAge) && fix.takenAt <= now.addingTimeInterval(maxFixLead)
    }

    /// The first instant after `now` at which `isVisible`, or whether a visible person shows as live, changes while
    /// the facts stay as they are (a Ghost timer ending, a fix coming into or leaving its window, a live share
    /// starting or ending); nil when only a write can change it. Both change by time only at those instants, so the first of
    /// them that flips one is the answer.
    public static func nextChange(_ facts: VisibilityFacts, after now: Date) -> Date? {
        guard let fix = facts.fix else { return nil }
        let instants = [fix.takenAt.addingTimeInterval(maxFixAge), fix.takenAt.addingTimeInterval(-maxFixLead)] + timers(facts)
        func shown(_ t: Date) -> (Bool, Bool) {
            let visible = isVisible(facts, at: t)
            return (visible, visible && isLive(facts, at: t))
        }
        let current = shown(now)
        return instants.filter { $0 > now }.sorted().first { shown($0) != current }
    }

    /// The timers in the facts, whatever the fix: a Ghost timer's end, a live share's start and end.
    public static func timers(_ facts: VisibilityFacts) -> [Date] {
        var instants: [Date] = []
        if case .timed(_, let until) = facts.settings.ghost { instants.append(until) }
        if let live = facts.live { instants += [live.startedAt, live.until] }
        return instants
    }

    /// The timers after `now` at which the person would show, were their fix current then. Time alone can show a
    /// hidden person only at one of them, so an answer kept until the first is over needs no news of the person's
    /// fixes while they stay hidden; and a timer that ends while the person stays hidden (an audience that leaves the
    /// viewer out) is no instant of the viewer's at all.
    public static func timersThatShow(_ facts: VisibilityFacts, after now: Date) -> [Date] {
        timers(facts).filter { $0 > now && allowsSight(facts, at: $0) }
    }
}
