import Foundation
import LiveMap
import RedisStore
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stateless `snapmap serve` replicas on one Redis Cluster (in the Redis suite, which runs one test at a time:
/// they share the cluster).
extension RedisStoreTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("snapmap")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : root.appendingPathComponent(".build/debug/snapmap")
    }

    /// A replica: `serve --demo --store …`, its base URL and the token it printed for Sam.
    final class Replica: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        let base: String
        let token: String

        init(store: String) throws {
            process.executableURL = RedisStoreTests.executable
            process.arguments = ["serve", "--port", "0", "--demo", "--store", store, "--stop-on-stdin-eof"]
            process.currentDirectoryURL = RedisStoreTests.root
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            var text = ""
            while !text.contains("#token=") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let start = text.range(of: "http://"), let tokenStart = text.range(of: "#token=") else {
                throw RedisFailure(description: "serve printed \(text)")
            }
            base = String(text[start.lowerBound...].prefix { !$0.isWhitespace })
            token = String(text[tokenStart.upperBound...].prefix { !$0.isWhitespace })
        }

        deinit {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        func fetch(_ path: String, method: String = "GET", token: String, body: String? = nil) async throws -> (Int, Data) {
            var request = URLRequest(url: URL(string: base + path)!)
            request.httpMethod = method
            request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
            request.httpBody = body.map { Data($0.utf8) }
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as! HTTPURLResponse).statusCode, data)
        }
    }

    static func operate(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aMoveThroughOneReplicaShowsOnTheOthersLayoutAndEvents() async throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let first = try Replica(store: cluster.url)
        let second = try Replica(store: cluster.url)
        _ = try Self.operate(["sharing", "jordan", "--ghost", "off", "--store", cluster.url])
        let jordan = try Self.operate(["users", "token", "jordan", "--store", cluster.url])
        let events = Process()
        events.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        events.arguments = ["-sN", "--max-time", "30", "-H", "Authorization: Bearer \(second.token)", second.base + "/v1/me/events"]
        let output = Pipe()
        events.standardOutput = output
        try events.run()
        defer { events.terminate() }
        var received = ""
        func read(until marker: String) {
            while !received.contains(marker) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                received += String(decoding: chunk, as: UTF8.self)
            }
        }
        read(until: "event: ready")
        let moved = try await first.fetch("/v1/me/location", method: "PUT", token: jordan,
                                          body: "{\"lat\": 40.71525, \"lon\": -73.96614, \"accuracyMeters\": 6, \"at\": \"2026-11-29T18:00:01Z\"}")
        #expect(moved.0 == 204)
        read(until: "40.71525")
        #expect(received.contains("event: move") && received.contains("\"id\":\"jordan\""), "the move reached the other replica's stream")
        let layout = try JSONSerialization.jsonObject(with: try await second.fetch("/v1/me/layout.json", token: second.token).1) as? [String: Any]
        let pins = layout?["pins"] as? [[String: Any]] ?? []
        let coordinate = pins.first { $0["id"] as? String == "jordan" }?["coordinate"] as? [String: Double]
        #expect(coordinate?["lat"] == 40.71525, "the other replica's layout has Jordan where he moved")
    }
}

extension RedisStoreTests {
    @Test func aMasterFailsOverDuringABurstAndNoAcknowledgedUpdateIsLost() async throws {
        let cluster = try RedisClusterFixture.shared.get()
        try cluster.flush()
        let replica = try Replica(store: cluster.url)
        let people = ["jordan", "maya", "noah", "theo", "leo", "priya", "ava", "eli"]
        var tokens: [String] = []
        for id in people { tokens.append(try Self.operate(["users", "token", id, "--store", cluster.url])) }
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
                        var request = URLRequest(url: URL(string: replica.base + "/v1/me/location")!)
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
        let healthy = try await replica.fetch("/healthz", token: "")
        #expect(healthy.0 == 200, "the replica kept serving")
    }
}
