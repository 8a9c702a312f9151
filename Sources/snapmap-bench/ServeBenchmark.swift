import Foundation

/// A bounded load run with wrk on loopback against `snapmap serve` (release): hot tiles (cached), cold tiles
/// (each rendered), the same for vector tiles, frames, and /healthz as the floor the server itself sets, measured
/// in the same run.
enum ServeBenchmark {
    static let seconds = 10
    static let hotTile = "/tiles/15/9651/12313.png"
    static let hotVectorTile = "/tiles/14/4825/6156.mvt"

    struct Load {
        let requestsPerSecond: Double
        let p99Milliseconds: Double
        let errors: Int
        var maxMilliseconds = 0.0
        var requests = 0
        /// The cores wrk (the client, one thread) used while it ran: near 1, the client and not the server set the rate.
        var clientCores = Double.nan
    }

    static func run() throws -> String {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: ".build/release/snapmap")
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-bench-\(getpid())/live.db").path
        server.arguments = ["serve", "--port", "0", "--demo", "--db", database, "--stop-on-stdin-eof"]
        let input = Pipe()
        let output = Pipe()
        server.standardInput = input
        server.standardOutput = output
        server.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try server.run()
        defer {
            try? input.fileHandleForWriting.close()
            server.waitUntilExit()
        }
        var line = ""
        while !line.contains("#token=") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        guard let start = line.range(of: "http://"), let tokenStart = line.range(of: "#token=") else { throw BenchmarkFailure(message: "serve printed \(line)") }
        let base = String(line[start.lowerBound...].prefix { !$0.isWhitespace })
        let signedIn = "Authorization: Bearer " + String(line[tokenStart.upperBound...].prefix { !$0.isWhitespace })
        _ = try BenchmarkProcess.run("curl", ["-s", "-o", "/dev/null", base + hotTile])
        let floor = try load(base + "/healthz/live", connections: 16)
        let hot = try load(base + hotTile, connections: 16)
        let cold = try load(base + "/", connections: 4, script: "bench/cold_tiles.lua")
        _ = try BenchmarkProcess.run("curl", ["-s", "-o", "/dev/null", "-H", "Accept-Encoding: gzip", base + hotVectorTile])
        let hotVector = try load(base + hotVectorTile, connections: 16, header: "Accept-Encoding: gzip")
        let coldVector = try load(base + "/", connections: 4, script: "bench/cold_tiles.lua", scriptArguments: ["mvt"])
        let frames = try load(base + "/v1/me/frame.png", connections: 2, header: signedIn)
        let layouts = try load(base + "/v1/me/layout.json", connections: 16, header: signedIn)
        func report(_ name: String, _ result: Load) -> String {
            String(format: "%@: %.0f requests/s, p99 %.1f ms, %d errors", name, result.requestsPerSecond, result.p99Milliseconds, result.errors)
        }
        return [
            report("serve /healthz/live (the floor)", floor),
            report("serve hot tiles", hot) + String(format: " (%.2f× the 5,000/s goal, %.2f× the /healthz floor)", hot.requestsPerSecond / 5000, hot.requestsPerSecond / floor.requestsPerSecond),
            report("serve cold tiles (each rendered)", cold),
            report("serve hot vector tiles (gzipped)", hotVector) + String(format: " (%.2f× the /healthz floor)", hotVector.requestsPerSecond / floor.requestsPerSecond),
            report("serve cold vector tiles (each made and gzipped)", coldVector)
                + String(format: " (%.2f× the cold PNG tiles of the same run)", coldVector.requestsPerSecond / cold.requestsPerSecond),
            report("serve Williamsburg frames (1179×2556, base, glow and pins)", frames),
            report("serve Sam's /v1/me/layout.json (the seeded store)", layouts)
                + String(format: " (%.2f× the /healthz floor)", layouts.requestsPerSecond / floor.requestsPerSecond),
        ].joined(separator: "\n")
    }

    /// One wrk run of `seconds` on one thread.
    static func load(_ url: String, connections: Int, script: String? = nil, scriptArguments: [String] = [], header: String? = nil,
                     seconds: Int = ServeBenchmark.seconds) throws -> Load {
        var arguments = ["-t1", "-c\(connections)", "-d\(seconds)s", "--latency", "--timeout", "15s"]
        if let header { arguments += ["-H", header] }
        if let script { arguments += ["-s", script] }
        let (clientBefore, started) = (childrenCPUSeconds(), ContinuousClock.now)
        let text = try BenchmarkProcess.run("wrk", arguments + [url] + (scriptArguments.isEmpty ? [] : ["--"] + scriptArguments))
        let elapsed = ContinuousClock.now - started
        let clientCores = (childrenCPUSeconds() - clientBefore) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        func number(after label: String) -> String? {
            guard let range = text.range(of: label) else { return nil }
            return text[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first.map(String.init)
        }
        guard let rate = number(after: "Requests/sec:").flatMap(Double.init), let p99 = number(after: "99%").map(milliseconds) else {
            throw BenchmarkFailure(message: "wrk printed \(text)")
        }
        let errors = ["connect", "read", "write", "timeout"].compactMap { number(after: "\($0) ")?.trimmingCharacters(in: .punctuationCharacters) }
            .compactMap(Int.init).reduce(0, +) + (number(after: "Non-2xx or 3xx responses:").flatMap(Int.init) ?? 0)
        let maximum = text.split(separator: "\n").first { $0.contains("Latency") && !$0.contains("Distribution") }?
            .split(separator: " ").dropFirst(3).first.map { milliseconds(String($0)) } ?? .nan
        let requests = text.range(of: " requests in ").flatMap { range in
            text[..<range.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\n" }).last.flatMap { Int($0) }
        } ?? 0
        return Load(requestsPerSecond: rate, p99Milliseconds: p99, errors: errors, maxMilliseconds: maximum, requests: requests, clientCores: clientCores)
    }

    /// CPU seconds (user and system) of this process's children that have ended: wrk's, around one run.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// wrk's latency text ("850.00us", "3.21ms", "1.02s") in milliseconds.
    static func milliseconds(_ text: String) -> Double {
        if text.hasSuffix("us") { return (Double(text.dropLast(2)) ?? .nan) / 1000 }
        if text.hasSuffix("ms") { return Double(text.dropLast(2)) ?? .nan }
        if text.hasSuffix("s") { return (Double(text.dropLast(1)) ?? .nan) * 1000 }
        return .nan
    }
}
