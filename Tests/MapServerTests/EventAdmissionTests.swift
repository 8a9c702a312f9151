import Foundation
import LiveMap
import Testing
@testable import MapServer

/// Admitting an event stream takes one of the viewer's places without the hub's queue: an HTTP thread that waited
/// for it stalled every connection it serves while a thousand streams opened.
@Suite("Event stream admission")
struct EventAdmissionTests {
    @Test func admittingNeverWaitsForTheHubAndKeepsTheBound() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-admit-\(UUID().uuidString)/live.db").path
        let hub = EventHub(live: LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false)), clock: { Date() })
        let viewer = PersonID(trusted: "ann")
        let busy = DispatchSemaphore(value: 0)
        hub.queue.async { busy.wait() }
        defer { busy.signal() }
        let answered = DispatchSemaphore(value: 0)
        let results = Results()
        Thread {
            results.set((0...EventHub.maxStreamsPerViewer).map { _ in hub.admit(viewer) })
            hub.release(viewer)
            results.set(results.get() + [hub.admit(viewer)])
            answered.signal()
        }.start()
        #expect(answered.wait(timeout: .now() + 10) == .success, "admission waited for the hub's queue")
        #expect(results.get() == Array(repeating: true, count: EventHub.maxStreamsPerViewer) + [false, true])
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Bool] = []
        func set(_ new: [Bool]) { lock.withLock { values = new } }
        func get() -> [Bool] { lock.withLock { values } }
    }
}
