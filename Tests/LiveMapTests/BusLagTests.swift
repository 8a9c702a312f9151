import Foundation
@testable import LiveMap
import Testing

/// What readiness says of the bus: a replica whose bus has not heard everything announced more than the staleness
/// bound ago is told apart (it hears other replicas' changes late), and one that caught up again is not.
@Suite("Bus lag")
struct BusLagTests {
    @Test func aBusBehindTheBoundOrNotListeningHasALagAndOneCaughtUpHasNone() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-buslag-\(UUID().uuidString).db").path
        let live = LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false))
        let now: UInt64 = 1_000_000_000_000
        #expect(live.busHolder.lag(now: now) == nil, "no bus, nothing to hear late")
        let bus = LiveViewTests.ManualBus()
        live.attach(bus)
        let notListening = try #require(live.busHolder.lag(now: now))
        #expect(notListening.contains("not yet listening"))
        let bound = UInt64(LiveView.stalenessBound * 1e9)
        bus.caughtUp(at: now - bound)
        #expect(live.busHolder.lag(now: now) == nil, "caught up exactly the bound ago")
        bus.caughtUp(at: now - bound - 1_500_000_000)
        let behind = try #require(live.busHolder.lag(now: now))
        #expect(behind.contains("2.5 s ago"), "\(behind)")
        bus.caughtUp(at: now + 1)
        #expect(live.busHolder.lag(now: now) == nil, "an instant after the question's")
    }
}
