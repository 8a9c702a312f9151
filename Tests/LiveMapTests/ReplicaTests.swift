import Foundation
import LiveMap
import RedisStore
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stateless `snapmap serve` replicas on one Redis Cluster (in the Redis suite, which runs one test at a time:
/// they share the cluster).
extension RedisStoreTests {
    @Test func aMoveThroughOneReplicaShowsOnTheOthersLayoutAndEvents() async throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let first = try ServerFixture(storeURL: cluster.url)
        let second = try ServerFixture(storeURL: cluster.url)
        try first.operate("sharing", "jordan", "--ghost", "off")
        let jordan = try first.operate("users", "token", "jordan")
        let events = try EventStream(server: second, token: second.token)
        events.read(until: "event: ready")
        let moved = try await first.fetch("/v1/me/location", method: "PUT",
                                          body: Data("{\"lat\": 40.71525, \"lon\": -73.96614, \"accuracyMeters\": 6, \"at\": \"2026-11-29T18:00:01Z\"}".utf8), token: jordan)
        #expect(moved.0 == 204)
        events.read(until: "40.71525")
        #expect(events.received.contains("event: move") && events.received.contains("\"id\":\"jordan\""), "the move reached the other replica's stream")
        let layout = try JSONSerialization.jsonObject(with: try await second.fetch("/v1/me/layout.json").2) as? [String: Any]
        let pins = layout?["pins"] as? [[String: Any]] ?? []
        let coordinate = pins.first { $0["id"] as? String == "jordan" }?["coordinate"] as? [String: Double]
        #expect(coordinate?["lat"] == 40.71525, "the other replica's layout has Jordan where he moved")
    }
}

extension RedisStoreTests {
    @Test func aMasterFailsOverDuringABurstAndNoAcknowledgedUpdateIsLost() async throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let replica = try ServerFixture(storeURL: cluster.url)
        let people = ["jordan", "maya", "noah", "theo", "leo", "priya", "ava", "eli"]
        var tokens: [String] = []
        for id in people { tokens.append(try replica.operate("users", "token", id)) }
        let victim = try cluster.master(of: "{p:jordan}:fix")
        // An hour before the demo clock: fixes expire 24 hours after they were taken, so they must be recent.
        let start = Date(timeIntervalSince1970: 1_795_971_600)
        let outcome = try await withThrowingTaskGroup(of: (Int, Int, [Int], Bool).self) { group in
            for (index, token) in tokens.enumerated() {
                group.addTask {
                    var last = -1
                    var others: [Int] = []
                    var cleanErrors = true
                    for step in 0..<60 {
                        let at = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(step)))
                        var request = URLRequest(url: replica.base.appendingPathComponent("v1/me/location"))
                        request.httpMethod = "PUT"
                        request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
                        request.httpBody = Data("{\"lat\": 40.71, \"lon\": -73.95, \"accuracyMeters\": 5, \"at\": \"\(at)\"}".utf8)
                        let (_, response) = try await URLSession.shared.data(for: request)
                        let http = response as! HTTPURLResponse
                        if http.statusCode == 204 { last = step } else {
                            others.append(http.statusCode)
                            if http.statusCode == 503 && http.value(forHTTPHeaderField: "Retry-After") == nil { cleanErrors = false }
                        }
                        if http.statusCode == 429 { try await Task.sleep(for: .milliseconds(100)) }
                    }
                    return (index, last, others, cleanErrors)
                }
            }
            group.addTask {
                try cluster.kill(victim)
                try cluster.waitForFailover(from: victim)
                try cluster.start(victim)
                return (-1, 0, [], true)
            }
            var results: [(Int, Int, [Int], Bool)] = []
            for try await result in group where result.0 >= 0 { results.append(result) }
            return results
        }
        try cluster.waitForHealthyCluster()
        let store = try RedisLiveStore(url: cluster.url)
        for (index, last, others, clean) in outcome {
            #expect(others.allSatisfy { $0 == 503 || $0 == 429 } && clean, "\(people[index]): only clean 503s (and 429s): \(others)")
            guard last >= 0 else { continue }
            let stored = try store.fix(of: PersonID(people[index]))
            #expect((stored?.takenAt ?? .distantPast) >= start.addingTimeInterval(Double(last)), "\(people[index])'s update \(last) was acknowledged and kept")
        }
        #expect(outcome.filter { $0.1 >= 0 }.count == people.count, "everyone's updates were acknowledged around the failover: \(outcome.map { ($0.1, $0.2.count) })")
        let healthy = try await replica.fetch("/healthz")
        #expect(healthy.0 == 200, "the replica kept serving")
    }
}

extension RedisStoreTests {
    /// A phone signed out through one replica loses the stream it holds open on another within a second (the bus
    /// carries the revocation), and a removed account leaves the other replica's streams at once.
    @Test func signingOutThroughOneReplicaEndsTheStreamOnTheOther() async throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let first = try ServerFixture(storeURL: cluster.url)
        let second = try ServerFixture(storeURL: cluster.url)
        let jordan = try first.operate("users", "token", "jordan")
        let events = try EventStream(server: second, token: second.token)
        let jordans = try EventStream(server: second, token: jordan)
        #expect(events.read(until: "event: ready", timeout: 10) && jordans.read(until: "event: ready", timeout: 10))
        #expect(try await first.fetch("/v1/me", method: "DELETE", token: jordan).0 == 204)
        #expect(jordans.waitForEnd(timeout: 1), "the deleted account's stream on the other replica ended")
        #expect(events.read(until: "{\"id\":\"jordan\"}", timeout: 1), "the other replica's viewer dropped Jordan at once")
        #expect(try await first.fetch("/v1/me/session", method: "DELETE", token: second.token).0 == 204)
        #expect(events.waitForEnd(timeout: 1), "the signed-out phone's stream on the other replica ended")
        #expect(try await second.fetch("/v1/me/layout.json").0 == 401)
    }
}
