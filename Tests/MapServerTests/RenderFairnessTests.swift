import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServerTestSupport
import Testing
@testable import MapServer

/// One person cannot take the render pool: they hold at most `RenderPool.perPersonLimit` of its places, and a
/// fly-to or a large frame whose client has gone stops drawing (they once ran to their end, and filled the pool).
@Suite("The render pool is shared fairly")
struct RenderFairnessTests {
    /// The access log's lines for `path` with `status`, and their durations in milliseconds.
    static func logged(_ log: URL, _ path: String, status: Int) -> [Double] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 4, fields[1] == path, fields[2] == "\(status)", fields[3].hasSuffix("ms") else { return nil }
            return Double(fields[3].dropLast(2))
        }
    }

    /// Polls the access log until `path` shows with `status` (or `seconds` pass); what it took, or nil. It waits on
    /// its own thread: an async sleep waits for a thread of the test pool, which other tests' blocking waits can
    /// hold past the deadline (a line logged in 9 s was not seen in 60 in two clean-clone runs).
    static func waitForLog(_ log: URL, _ path: String, status: Int, seconds: Double) -> Double? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let took = logged(log, path, status: status).first { return took }
            usleep(50_000)
        }
        return logged(log, path, status: status).first
    }

    /// The phone-sized fly-to at 60 frames a second, and the largest frame (64 million pixels, drawn band by band):
    /// the longest renders there are (seconds each), so the client leaves long before the end.
    @Test(arguments: ["/v1/me/fly.png?friend=jordan&fps=60", "/v1/me/frame.png?size=4000x4000&scale=2&zoom=15"])
    func aRenderWhoseClientLeftStopsDrawing(path: String) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-fairness-\(UUID().uuidString).log")
        let server = try ServerFixture(log: log)
        // The whole render, by curl within ten minutes: on a loaded machine (the whole suite on 16 workers) the 60 fps
        // fly-to took over a minute before its first byte, past URLSession's 60 s idle timeout.
        let whole = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", "--max-time", "600", "-w", "%{http_code}",
                                                                               "-H", "Authorization: Bearer " + server.token, server.base.absoluteString + path])
        #expect(whole.output == "200", "\(whole.output) \(whole.errorOutput)")
        // How long the render takes by the server's own clock (its access log): timed in this process under a full
        // suite, it once read ten times that, and the client below then waited for the whole answer.
        let logged = String(path.prefix { $0 != "?" })
        let full = try #require(Self.waitForLog(log, logged, status: 200, seconds: 60), "the whole render was never logged") / 1000
        // The same again at another zoom (so nothing of it is cached), its client gone after a tenth of the time it takes.
        // curl leaves at its own limit (a timed-out URLSession task once wedged the process's shared session).
        _ = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", "--max-time", String(format: "%.2f", max(0.2, full / 10)),
                                                                        "-H", "Authorization: Bearer " + server.token,
                                                                        server.base.absoluteString + path + "&center=40.7101,-73.9602"])
        let took = Self.waitForLog(log, logged, status: RenderPool.clientLeftStatus, seconds: full * 3 + 30)
        let stopped = try #require(took, "the render whose client left was never logged as stopped: \(Self.logged(log, logged, status: 200))")
        #expect(stopped < full * 1000 / 2, "stopped after \(stopped) ms; the whole render takes \(full * 1000) ms")
    }

    @Test func onePersonHoldsAtMostTheirShareOfThePool() async throws {
        let server = try ServerFixture()
        let jordan = try server.operate("users", "token", "jordan")
        let asked = RenderPool.perPersonLimit + 2
        // A connection each, all at once (a shared session may queue requests to one host).
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = asked + 2
        let session = URLSession(configuration: configuration)
        func ask(_ path: String, token: String) async throws -> (Int, String?) {
            var request = URLRequest(url: URL(string: server.base.absoluteString + path)!)
            request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
            request.timeoutInterval = 600
            let (_, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"))
        }
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<asked { group.addTask { try await ask("/v1/me/frame.png?size=2000x2000&scale=2&zoom=\(14 + Double(index) / 10)", token: server.token) } }
            // Another person's frame, asked while Sam's frames hold their places, is drawn.
            group.addTask { (try await ask("/v1/me/frame.png?size=200x200&scale=1", token: jordan).0, "jordan") }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let sams = statuses.filter { $0.1 != "jordan" }
        #expect(statuses.contains { $0.1 == "jordan" && $0.0 == 200 })
        #expect(sams.filter { $0.0 == 200 }.count >= 1)
        #expect(sams.allSatisfy { $0.0 == 200 || ($0.0 == 429 && $0.1 == "1") }, "\(sams)")
        #expect(sams.filter { $0.0 == 429 }.count >= asked - RenderPool.perPersonLimit, "\(sams)")
    }
}
