import Foundation

/// A replica's `/v1/me/layout.json` under load, inside one minute of its clock, after one pass over every viewer
/// that reads each one's ETag (and fills the server's kept answers, as viewers who came before would have):
/// layouts and revalidations from 16 connections; with `atGoals`, layouts again paced near the 20,000/s goal (their
/// p99 read at that rate, not at saturation) and revalidations from 64 connections; and the answers' mean size.
struct LayoutLoads {
    let layouts: ServerLoad
    let revalidations: ServerLoad
    let paced: ServerLoad?
    let wideRevalidations: ServerLoad?
    let answerBytes: Double

    /// Connections that, each waiting 1 ms after an answer (`bench/paced.lua`), asked about 23,000 kept layouts a
    /// second on a quiet 2-core machine (about 530 a connection): the rate the p99 is read at is printed beside it.
    static let pacedConnections = 44
    static let wideConnections = 64

    static func measure(_ server: ServedProcess, tokens: URL, scratch: URL, atGoals: Bool) throws -> LayoutLoads {
        let config = scratch.appendingPathComponent("etags.curl")
        let lines = try String(contentsOf: tokens, encoding: .utf8).split(separator: "\n")
        try waitForTheMinuteToTurn(server, token: String(lines.first ?? ""))
        try lines.map { "url = \"\(server.base)/v1/me/layout.json\"\nheader = \"Authorization: Bearer \($0)\"\noutput = \"/dev/null\"\n"
            + "write-out = \"%header{etag} %{size_download}\\\\n\"\n" }.joined(separator: "next\n").write(to: config, atomically: true, encoding: .utf8)
        let seen = try BenchmarkProcess.run("curl", ["-s", "--config", config.path]).split(separator: "\n").map { $0.split(separator: " ") }
        guard seen.count == lines.count, seen.allSatisfy({ $0.count == 2 }) else { throw BenchmarkFailure(message: "ETags: \(seen.prefix(3))") }
        let tags = scratch.appendingPathComponent("etags.txt")
        try seen.map { String($0[0]) }.joined(separator: "\n").write(to: tags, atomically: true, encoding: .utf8)
        let url = server.base + "/v1/me/layout.json"
        func load(_ connections: Int, _ script: String, _ arguments: [String]) throws -> ServerLoad {
            try server.measured { try ServeBenchmark.load(url, connections: connections, script: script, scriptArguments: [tokens.path] + arguments) }
        }
        let layouts = try load(16, "bench/signed_in.lua", ["layouts"])
        let revalidations = try load(16, "bench/signed_in.lua", ["revalidate", tags.path])
        return LayoutLoads(layouts: layouts, revalidations: revalidations,
                           paced: atGoals ? try load(pacedConnections, "bench/paced.lua", ["layouts"]) : nil,
                           wideRevalidations: atGoals ? try load(wideConnections, "bench/signed_in.lua", ["revalidate", tags.path]) : nil,
                           answerBytes: seen.compactMap { Double($0[1]) }.reduce(0, +) / Double(seen.count))
    }

    /// Kept answers are keyed by the minute their labels are drawn for ("Jordan · 2m"), so each viewer's first layout
    /// in a minute is made again: the pass that keeps them and the loads (about 45 s) start just after the server's
    /// minute turns (its layouts' `now` changes), so that all of them fall inside one minute. Waits 70 s at most.
    static func waitForTheMinuteToTurn(_ server: ServedProcess, token: String) throws {
        func minute() throws -> Substring? {
            let text = try BenchmarkProcess.run("curl", ["-s", "-H", "Authorization: Bearer \(token)", server.base + "/v1/me/layout.json"])
            return text.range(of: "\"now\":\"").map { text[$0.upperBound...].prefix { $0 != "\"" } }
        }
        guard let first = try minute() else { throw BenchmarkFailure(message: "the layout names no minute (now)") }
        let deadline = ContinuousClock.now + .seconds(70)
        while ContinuousClock.now < deadline {
            if try minute() != first { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw BenchmarkFailure(message: "the server's minute did not turn within 70 s")
    }

    /// "; paced (…): R/s, p99 P ms (goal …)": the layouts at the goal's rate, when measured.
    var pacedText: String {
        guard let paced else { return "" }
        return String(format: "; paced (%d connections, 1 ms between a connection's requests): %.0f/s, p99 %.1f ms (goal: ≥ 20,000/s at p99 ≤ 5 ms)",
                      Self.pacedConnections, paced.requestsPerSecond, paced.load.p99Milliseconds)
    }

    /// "; from 64 connections: R/s (…× the goal), p99 P ms, …": the revalidations with more phones at once, when measured.
    var wideText: String {
        guard let wide = wideRevalidations else { return "" }
        return String(format: "; from %d connections: %.0f/s (%.2f× the 50,000/s goal), p99 %.1f ms", Self.wideConnections,
                      wide.requestsPerSecond, wide.requestsPerSecond / 50_000, wide.load.p99Milliseconds) + wide.costs
    }
}
