import GeoCore
import Routing

/// The drive from the store to the customer's home as the customer sees it: the Dasher's fixes matched to the
/// road one at a time (the hidden Markov matcher's newest state), the remaining route from the matched position at
/// each fix (the rest of the last one while the Dasher keeps to it, else routed afresh: a Dasher who leaves the
/// route is re-routed from where they are),
/// the share of the drive left, and an ETA whose speeds learn from this Dasher's recent matched driving.
public struct DriveTracker: Sendable {
    /// The learned pace looks at this many of the latest matched fixes.
    public static let window = 12
    /// The drive is "nearby" once this share of its planned length or less remains.
    public static let nearbyShare = 0.25
    /// How far the learned pace (seconds driven per second the street speeds predict) may stray from 1.
    public static let paceRange = 0.5...3.0
    public let home: RoadPosition
    /// The drive as planned at pickup.
    public let planned: Route
    /// The matched position of the latest fix that had one (the store's position before the first).
    public private(set) var position: RoadPosition
    /// The route from `position` to home.
    public private(set) var remaining: Route
    public private(set) var pace = 1.0
    private var chain = MatchChain()
    private var progress: [(time: Double, remainingSeconds: Double)] = []

    /// Plans the drive; nil when no street connects the store to the home.
    public init?(router: Router, from store: RoadPosition, to home: RoadPosition, search: inout RouteSearch) {
        guard let route = router.route(from: store, to: home, search: &search) else { return nil }
        self.home = home
        planned = route
        position = store
        remaining = route
    }

    /// The share of the planned length still to drive (0 at home; above 1 after a detour).
    public var remainingShare: Double { planned.length > 0 ? remaining.length / planned.length : 0 }
    /// Whether the drive has reached its last quarter ("Your Dasher is nearby").
    public var isNearby: Bool { remainingShare <= Self.nearbyShare }
    /// Seconds to home: the remaining route's time at street speeds, times the learned pace.
    public var etaSeconds: Double { remaining.duration * pace }

    /// Matches `fix` after the Dasher's earlier ones and moves the Dasher there; false (the Dasher stays) when
    /// the fix has no road near it or no street connects its road to home.
    public mutating func add(_ fix: TraceFix, matcher: inout MapMatcher, search: inout RouteSearch) -> Bool {
        guard let matched = matcher.follow(fix, chain: &chain),
              let route = matcher.router.rest(of: remaining, from: matched) ?? matcher.router.route(from: matched, to: home, search: &search) else {
            return false
        }
        position = matched
        remaining = route
        progress = Array((progress + [(fix.time, route.duration)]).suffix(Self.window))
        if let first = progress.first, let last = progress.last, first.remainingSeconds - last.remainingSeconds > 10 {
            let observed = (last.time - first.time) / (first.remainingSeconds - last.remainingSeconds)
            pace = min(max(observed, Self.paceRange.lowerBound), Self.paceRange.upperBound)
        }
        return true
    }
}
