import Foundation
import LiveMap
import Testing
@testable import MapServer

/// Readiness of a replica whose bus hears other replicas' changes late: still 200 (the store answers everything), but
/// "degraded" with the reason, and "ok" again once the bus caught up.
@Suite struct ReadinessBusTests {
    final class StalledBus: LiveBus, BusLiveness, @unchecked Sendable {
        private let lock = NSLock()
        private var at: UInt64?
        var caughtUpAt: UInt64? { lock.withLock { at } }
        func caughtUp(at instant: UInt64?) { lock.withLock { at = instant } }
        func publish(_ message: LiveBusMessage) {}
        func listen(_ handler: @escaping @Sendable (LiveBusMessage) -> Void) {}
    }

    @Test func readinessSaysDegradedWhileTheBusIsBehindAndOkOnceItCaughtUp() async throws {
        let map = try InProcessMap(snaps: [], at: Date(timeIntervalSince1970: 1_800_000_000))
        let bus = StalledBus()
        map.api.live.attach(bus)
        func status(_ path: String) async throws -> (Int, [String: String]) {
            let response = await map.fetch(path)
            return (response.status, try JSONDecoder().decode([String: String].self, from: Data(response.body)))
        }
        let listening = try await status("/healthz/ready")
        #expect(listening.0 == 200 && listening.1["status"] == "degraded" && listening.1["reason"]?.contains("not yet listening") == true, "\(listening)")
        bus.caughtUp(at: DispatchTime.now().uptimeNanoseconds - UInt64((LiveView.stalenessBound + 4) * 1e9))
        let behind = try await status("/healthz")
        #expect(behind.0 == 200 && behind.1["status"] == "degraded" && behind.1["reason"]?.contains("s ago") == true, "\(behind)")
        #expect(try await status("/healthz/live").1["status"] == "live")
        bus.caughtUp(at: DispatchTime.now().uptimeNanoseconds + 60_000_000_000)
        let caughtUp = try await status("/healthz/ready")
        #expect(caughtUp.0 == 200 && caughtUp.1 == ["status": "ok", "version": caughtUp.1["version"] ?? ""], "\(caughtUp)")
    }
}
