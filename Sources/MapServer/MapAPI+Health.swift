import Foundation
import LiveMap
import SnapMapVersion

/// Whether the server is stopping (set once, read by every readiness probe).
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }

    func raise() {
        lock.lock()
        raised = true
        lock.unlock()
    }
}

extension MapAPI {
    /// From now on readiness answers 503 "stopping" (the server is draining before it exits).
    public func beginStopping() {
        stopping.raise()
    }

    /// `/healthz/live`: the process answers (liveness: restart it when this fails). `/healthz/ready` and `/healthz`:
    /// it can serve now (readiness): not stopping, and the store's own check passes; else 503 with the reason. Ready
    /// but hearing other replicas' changes late, or answering from the store while its view loads, is 200 "degraded"
    /// with the reason. Each answer carries the version.
    func health(_ path: String) throws -> HTTPResponse? {
        let headers = [("Cache-Control", "no-store")]
        let version = SnapMapVersion.current
        switch path {
        case "/healthz/live":
            return try Self.encoded(["status": "live", "version": version], status: 200, headers: headers)
        case "/healthz", "/healthz/ready":
            if stopping.isRaised { return try Self.encoded(["status": "stopping", "reason": "the server is stopping", "version": version], status: 503, headers: headers) }
            if case .unavailable(let reason) = live.store.health() {
                return try Self.encoded(["status": "unavailable", "reason": reason, "version": version], status: 503, headers: headers)
            }
            // It can serve, but changes made through other replicas reach it late: still ready, saying why.
            if let lag = live.busLag ?? live.viewLag { return try Self.encoded(["status": "degraded", "reason": lag, "version": version], status: 200, headers: headers) }
            return try Self.encoded(["status": "ok", "version": version], status: 200, headers: headers)
        default:
            return nil
        }
    }
}
