/// Whether a live store can answer now, as a readiness probe reports it.
public enum StoreHealth: Equatable, Sendable {
    case ready
    /// It cannot serve: the reason names the fault (never a path or a person), for the 503's JSON.
    case unavailable(reason: String)
}

extension LiveStore {
    /// Stores that cannot tell report ready; the SQLite store checks its file.
    public func health() -> StoreHealth { .ready }
}
