import Foundation
import ServerTestSupport
import Testing

/// The street network is built from the server's start, beside it: the first tracking request (and a Dasher's
/// fix) sent the moment the server listens is answered at once, the map 503 with `Retry-After` until the network
/// is ready, and the fix sent meanwhile still reaches the customer once it is.
@Suite struct StreetNetworkStartTests {
    /// How long the first requests may take, by curl's `time_total` (the build takes seconds; a refusal takes ms).
    static let bound = 1.0

    @Test func theFirstTrackingRequestIsAnsweredWithinItsBoundWhileTheNetworkIsBuilt() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-streets-\(UUID().uuidString)/live.db").path
        let db = ["--db", path]
        // The order is in the store before the server starts, so its first request can come as soon as it listens.
        func operate(_ arguments: String...) throws -> String {
            let result = try Snapmap.run(arguments + db)
            #expect(result.succeeded, "\(arguments)")
            return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for id in ["cora", "dash"] { _ = try operate("users", "add", id, "--name", id) }
        _ = try operate("orders", "create", "first", "--customer", "cora", "--dasher", "dash", "--merchant", "Lucia's", "--items", "Pie",
                        "--from", OrderHTTPTests.store, "--to", OrderHTTPTests.home)
        for event in ["confirm", "pickup"] { _ = try operate("orders", event, "first") }
        let (customer, dasher) = (try operate("users", "token", "cora"), try operate("users", "token", "dash"))

        let server = try ServerFixture(database: path)
        let layout = server.base.appendingPathComponent("v1/me/orders/first/layout.json")
        let first = try TimedRequest.send("GET", layout, token: customer)
        #expect(first.seconds <= Self.bound, "\(first)")
        #expect(first.status == 200 || (first.status == 503 && first.headers["retry-after"] == "1"), "\(first)")
        let events = try EventStream(server: server, token: customer)
        #expect(events.read(until: "event: ready", timeout: 120), "a loaded full run can take long to open a stream")
        let fix = try TimedRequest.send("PUT", server.base.appendingPathComponent("v1/me/location"), token: dasher,
                                        body: #"{"lat":40.6790,"lon":-73.9815,"accuracyMeters":8}"#)
        #expect(fix.status == 204 && fix.seconds <= Self.bound, "the Dasher's fix waits for no network: \(fix)")

        // As a phone does: asked again after Retry-After until the map comes; every answer within the bound.
        var answer = first
        for _ in 0..<120 where answer.status == 503 {
            try await Task.sleep(for: .seconds(Double(answer.headers["retry-after"].flatMap(Int.init) ?? 1)))
            answer = try TimedRequest.send("GET", layout, token: customer)
            #expect(answer.seconds <= Self.bound && [200, 503].contains(answer.status), "\(answer)")
        }
        #expect(answer.status == 200, "\(answer)")
        #expect(events.read(until: #""dasher":{"#, timeout: 120), "the fix sent while the network was built reaches the customer: \(events.received)")
    }
}
