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

    public init(viewer: PersonID, person: PersonID, viewerAsked: Bool, personAsked: Bool, blocked: Bool,
                settings: SharingSettings, fix: LocationFix?) {
        self.viewer = viewer
        self.person = person
        self.viewerAsked = viewerAsked
        self.personAsked = personAsked
        self.blocked = blocked
        self.settings = settings
        self.fix = fix
    }
}

/// The privacy rule, in one place: viewer V sees person F at server time t exactly when V ≠ F, they are mutual
/// friends, neither blocks the other, F is not in Ghost Mode at t, V is in F's audience, and F's latest fix was
/// taken in (t − 24 h, t + 60 s]. Every output of the map goes through it.
public enum VisibilityRule {
    /// A fix older than this hides its person.
    public static let maxFixAge: TimeInterval = 24 * 3600
    /// A fix further ahead of the server's clock than this is refused (and would not show).
    public static let maxFixLead: TimeInterval = 60

    public static func isVisible(_ facts: VisibilityFacts, at now: Date) -> Bool {
        guard facts.viewer != facts.person, facts.viewerAsked, facts.personAsked, !facts.blocked else { return false }
        guard !facts.settings.ghost.isOn(at: now), facts.settings.audience.includes(facts.viewer) else { return false }
        guard let fix = facts.fix else { return false }
        return isCurrent(fix, at: now)
    }

    /// Whether a fix counts at `now`: taken in (now − 24 h, now + 60 s]. A person's own fix (the card's distance)
    /// counts on the same terms.
    public static func isCurrent(_ fix: LocationFix, at now: Date) -> Bool {
        fix.takenAt > now.addingTimeInterval(-maxFixAge) && fix.takenAt <= now.addingTimeInterval(maxFixLead)
    }

    /// The first instant after `now` at which `isVisible` changes while the facts stay as they are (a Ghost timer
    /// ending, a fix coming into or leaving its window); nil when only a write can change it. Visibility changes
    /// by time only at those instants, so the first of them that flips it is the answer.
    public static func nextChange(_ facts: VisibilityFacts, after now: Date) -> Date? {
        guard let fix = facts.fix else { return nil }
        var instants = [fix.takenAt.addingTimeInterval(maxFixAge), fix.takenAt.addingTimeInterval(-maxFixLead)]
        if case .timed(_, let until) = facts.settings.ghost { instants.append(until) }
        let visible = isVisible(facts, at: now)
        return instants.filter { $0 > now }.sorted().first { isVisible(facts, at: $0) != visible }
    }
}
