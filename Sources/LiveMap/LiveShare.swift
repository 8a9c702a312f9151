import Foundation

/// Live Location: a person shares their latest fix with one friend for a set time (15 minutes, 1 or 8 hours),
/// whatever their Ghost Mode and audience say; it can be paused and resumed (the end stays where it was) or stopped.
/// A person runs at most one share to each friend; starting another replaces it. Encoded as the API answers it.
public struct LiveShare: Hashable, Sendable, Encodable {
    /// The durations a person may choose, by their API names, in seconds.
    public static let durations: [(name: String, seconds: TimeInterval)] = [("15m", 900), ("1h", 3600), ("8h", 8 * 3600)]

    public let from: PersonID
    public let to: PersonID
    public let startedAt: Date
    public let until: Date
    public let paused: Bool

    public init(from: PersonID, to: PersonID, startedAt: Date, until: Date, paused: Bool) {
        self.from = from
        self.to = to
        self.startedAt = startedAt
        self.until = until
        self.paused = paused
    }

    /// Whether the share shows its sharer at `now`: not paused, started (a share made at a clock ahead of the
    /// server's waits for it), and `now` before its end.
    public func isRunning(at now: Date) -> Bool { !paused && startedAt <= now && now < until }

    /// The share paused or resumed.
    public func with(paused: Bool) -> LiveShare {
        LiveShare(from: from, to: to, startedAt: startedAt, until: until, paused: paused)
    }

    /// The seconds a duration's API name stands for; an unknown name is an error naming `duration`.
    public static func seconds(_ name: String) throws(LiveMapError) -> TimeInterval {
        guard let found = durations.first(where: { $0.name == name }) else {
            throw .invalid(field: "duration", message: "must be one of \(durations.map(\.name).joined(separator: ", ")); got \"\(name.prefix(32))\"")
        }
        return found.seconds
    }
}
