import Foundation
import LiveMap
import MapEngine
import MapScene
import MapServer
import Testing

@Suite("Rate limits and deleted accounts")
struct DeletedLimiterTests {
    /// A new account on a deleted account's id starts with a full bucket of location updates: the limiter used to keep
    /// the deleted one's bucket (keyed by the id), so the newcomer's first updates were answered 429 for what someone
    /// else had sent.
    @Test func aNewAccountOnADeletedIdIsNotHeldBackByTheOld() async throws {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: InProcessMap.dataDirectory))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-limits-\(UUID().uuidString).db").path
        let live = LiveMapService(store: try SQLiteLiveStore(path: path))
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let api = try MapAPI(engine: engine, live: live, clock: { now })
        func send(_ method: String, _ path: String, _ body: String, token: String) async -> Int {
            let request = HTTPRequest(method: method, path: path, host: "127.0.0.1", authorization: "Bearer " + token,
                                      contentType: "application/json", body: Array(body.utf8))
            let response = api.handle(request)
            guard let deferred = response.deferred else { return response.status }
            return await withCheckedContinuation { continuation in deferred(DeferredReply { continuation.resume(returning: $0.status) }) }
        }
        let move = { (step: Int) in "{\"lat\": 40.71, \"lon\": \(-73.95 + Double(step) / 1e4), \"accuracyMeters\": 5}" }
        _ = try live.addPerson(id: "reused", name: "First Owner")
        let first = try live.mintToken(for: "reused")
        var refused = false
        for step in 0..<400 where !refused { refused = await send("PUT", "/v1/me/location", move(step), token: first) == 429 }
        #expect(refused, "the first owner ran out of updates")
        #expect(await send("DELETE", "/v1/me", "", token: first) == 204)

        _ = try live.addPerson(id: "reused", name: "Second Owner")
        let second = try live.mintToken(for: "reused")
        var statuses: [Int] = []
        for step in 0..<15 { statuses.append(await send("PUT", "/v1/me/location", move(step), token: second)) }
        #expect(statuses.allSatisfy { $0 == 204 }, "the newcomer's first 15 updates: \(statuses)")
    }
}
