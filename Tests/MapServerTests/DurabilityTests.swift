import Foundation
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// kill -9 in the middle of a burst of location updates: every update answered 204 is in the store afterwards.
@Suite("Acknowledged updates survive kill -9")
struct DurabilityTests {
    /// The time of each runner's first fix: an hour before the demo server's clock starts (fixes must be current).
    static let firstFix = ISO8601DateFormatter().date(from: "2026-11-29T17:00:00Z")!

    @Test func everyAcknowledgedUpdateIsThereAfterARestart() async throws {
        let fixture = try ServerFixture.shared.get()
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-durable-\(UUID().uuidString)/live.db").path
        func operate(_ arguments: String...) throws -> String {
            let process = Process()
            process.executableURL = fixture.executable
            process.arguments = arguments + ["--db", database]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let people = (0..<8).map { "runner\($0)" }
        var tokens: [String] = []
        for id in people {
            _ = try operate("users", "add", id, "--name", "Runner")
            tokens.append(try operate("users", "token", id))
        }
        let server = try ServerFixture(database: database)
        let base = server.base.absoluteString
        // Each person sends fixes with increasing times; the last acknowledged time per person is recorded.
        let acknowledged = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (index, token) in tokens.enumerated() {
                group.addTask {
                    var last = -1
                    for step in 0..<400 {
                        var request = URLRequest(url: URL(string: base + "/v1/me/location")!)
                        request.httpMethod = "PUT"
                        request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
                        let at = ISO8601DateFormatter().string(from: Self.firstFix.addingTimeInterval(Double(step)))
                        request.httpBody = Data("{\"lat\": 40.7, \"lon\": -73.95, \"accuracyMeters\": 5, \"at\": \"\(at)\"}".utf8)
                        guard let (_, response) = try? await URLSession.shared.data(for: request) else { break }
                        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                        if status == 204 { last = step }
                        if status == 429 { continue }
                    }
                    return (index, last)
                }
            }
            group.addTask {
                var request = URLRequest(url: URL(string: base + "/healthz")!)
                request.httpMethod = "GET"
                for _ in 0..<20 { _ = try? await URLSession.shared.data(for: request) }
                kill(server.process.processIdentifier, SIGKILL)
                return (-1, 0)
            }
            var result: [Int: Int] = [:]
            for try await (index, last) in group where index >= 0 { result[index] = last }
            return result
        }
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .uncaughtSignal, "the server was killed mid-burst")
        #expect(acknowledged.values.contains { $0 >= 0 }, "some updates were acknowledged before the kill")
        for (index, id) in people.enumerated() {
            let line = try operate("locate", id, "--at", "40.7,-73.95", "--taken", "2026-11-29T16:00:00Z", "--clock", "2026-11-29T18:00:00Z")
            let lastStep = acknowledged[index] ?? -1
            guard lastStep >= 0 else { continue }
            #expect(line.hasPrefix("ignored"), "\(id): a fix older than every acknowledged one is ignored, so the store holds one: \(line)")
            let probeAt = ISO8601DateFormatter().string(from: Self.firstFix.addingTimeInterval(Double(lastStep)))
            let probe = try operate("locate", id, "--at", "40.7,-73.95", "--taken", probeAt, "--clock", "2026-11-29T18:00:00Z")
            #expect(probe.hasPrefix("ignored"), "\(id): the last acknowledged fix (step \(lastStep)) survived: \(probe)")
        }
    }
}
