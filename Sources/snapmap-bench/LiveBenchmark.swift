import Foundation
import MapEngine
import MapScene

/// The live backend under load, against `snapmap serve` (release) on a store of 100,000 people with about 100
/// friends each: acknowledged, durable location updates a second from many people, `/v1/me/layout.json` for many
/// viewers, and how long an update takes to reach the friends' event streams with 1,000 streams open; each next to
/// the `/healthz` floor of the same run. `SNAPMAP_LIVE_PEOPLE` sets another number of people (the rest stays).
enum LiveBenchmark {
    static let shape = (people: 100_000, friendsEach: 100, community: 1_000, tokens: 5_000)

    static func world() throws -> RedisBenchmark.World {
        (people: try BenchmarkSetting.integer("SNAPMAP_LIVE_PEOPLE", default: shape.people, in: 5_000...1_000_000), friendsEach: shape.friendsEach,
         community: shape.community, tokens: shape.tokens)
    }
    static let goals = (updates: 20_000.0, layouts: 20_000.0, revalidations: 50_000.0, eventP99: 50.0, snaps: 10_000.0)

    /// Frames asked at once: one a core. (With more, each waits for the others: at 60 frames a second, four
    /// connections mean 67 ms a frame on average, whatever the server does.)
    static let frameConnections = 2

    /// Per-viewer frames after a second that renders each viewport's shared layers (as a running server has them).
    static func framesLoad(_ base: String, tokens: String) throws -> ServeBenchmark.Load {
        let url = base + "/v1/me/frame.png"
        _ = try ServeBenchmark.load(url, connections: frameConnections, script: "bench/signed_in.lua", scriptArguments: [tokens, "frames"], seconds: 1)
        return try ServeBenchmark.load(url, connections: frameConnections, script: "bench/signed_in.lua", scriptArguments: [tokens, "frames"])
    }

    static func run() throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-live-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let world = try world()
        let scene = try SceneLoader(dataDirectory: URL(fileURLWithPath: "Data")).load()
        let database = scratch.appendingPathComponent("live.db").path
        let tokenFile = scratch.appendingPathComponent("tokens.txt")
        let buildTime = try BenchmarkClock.best(of: 1) {
            try LiveWorld(people: world.people, friendsEach: world.friendsEach, community: world.community, tokens: world.tokens,
                          now: scene.capturedAt).copy(to: database, tokenFile: tokenFile, cache: URL(fileURLWithPath: ".build/bench-cache"))
        }
        let clock = ISO8601DateFormatter().string(from: scene.capturedAt)
        // Each step on its own: one that fails says why on its lines, and the others still run.
        let steps = BenchmarkSteps()
        func layoutsFrom(_ server: ServedProcess) throws -> ServerLoad {
            try server.measured {
                try ServeBenchmark.load(server.base + "/v1/me/layout.json", connections: 16, script: "bench/signed_in.lua", scriptArguments: [tokenFile.path, "layouts"])
            }
        }
        func served<T>(_ arguments: [String], _ measure: (ServedProcess) throws -> T) throws -> T {
            let server = try ServedProcess(arguments: ["--db", database] + arguments)
            defer { server.stop() }
            return try measure(server)
        }
        let server = steps.run("serve") { try ServedProcess(arguments: ["--db", database, "--clock", clock]) }
        let floor = steps.run("/healthz floor") { try ServeBenchmark.load(try server.get().base + "/healthz/live", connections: 16) }
        let kept = steps.run("kept layouts") { try LayoutLoads.measure(try server.get(), tokens: tokenFile, scratch: scratch, atGoals: true) }
        // The same view without kept answers, and a server that reads the store (no view), beside the first on the same file.
        let unkept = steps.run("layouts without kept answers") { try served(["--clock", clock, "--no-layout-cache"]) { try LayoutLoads.measure($0, tokens: tokenFile, scratch: scratch, atGoals: false) } }
        let store = steps.run("layouts from the store") { try served(["--clock", clock, "--no-view"], layoutsFrom) }
        let updates = steps.run("location updates") {
            try ServeBenchmark.load(try server.get().base + "/v1/me/location", connections: 64, script: "bench/signed_in.lua", scriptArguments: [tokenFile.path, "locations"])
        }
        let snaps = steps.run("Snaps") {
            try ServeBenchmark.load(try server.get().base + "/v1/me/snaps", connections: 64, script: "bench/signed_in.lua", scriptArguments: [tokenFile.path, "snaps"])
        }
        let frames = steps.run("frames") { try framesLoad(try server.get().base, tokens: tokenFile.path) }
        (try? server.get())?.stop()
        let scratchFrames = steps.run("frames from scratch") { try served(["--clock", clock, "--no-shared-layers"]) { try framesLoad($0.base, tokens: tokenFile.path) } }
        // A clock an hour on: the earlier servers' clocks started at the same time and wrote fixes a little after it.
        let later = ISO8601DateFormatter().string(from: scene.capturedAt.addingTimeInterval(3600))
        let latency = steps.run("events") {
            try served(["--clock", later, "--per-client-connections", "4096"]) { server in
                let text = try BenchmarkProcess.run("python3", ["bench/event_latency.py", server.base, tokenFile.path, String(world.community), "300"])
                guard let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], let p99 = json["p99"] as? Double else {
                    throw BenchmarkFailure(message: "event_latency.py printed \(text.prefix(300))")
                }
                return (json, p99)
            }
        }
        func line(_ name: String, _ load: ServeBenchmark.Load, goal: Double) throws -> String {
            let floor = try floor.get()
            return String(format: "%@: %.0f/s (%.2f× the /healthz floor of %.0f/s; %.2f× the %.0f/s goal), p99 %.1f ms, %d errors",
                          name, load.requestsPerSecond, load.requestsPerSecond / floor.requestsPerSecond, floor.requestsPerSecond,
                          load.requestsPerSecond / goal, goal, load.p99Milliseconds, load.errors)
        }
        /// "; <what>": the ratio of `rate` to a rate of another step, or nothing when that step failed.
        func ratio<T>(_ other: Result<T, StepFailure>, _ format: String, _ rate: (T) -> Double) -> String {
            (try? other.get()).map { String(format: format, rate($0)) } ?? ""
        }
        let layoutsTitle = "live /v1/me/layout.json for \(world.tokens) viewers"
        return try steps.report([
            String(format: "live world: %d people, ~%d friends each, ready in %.1f s (built once into .build/bench-cache by snapmap seed --synthetic, then copied)", world.people, world.friendsEach, buildTime),
            BenchmarkSteps.line("live location updates over HTTP") { try line("live location updates over HTTP (acknowledged, durable)", updates.get(), goal: goals.updates) },
            BenchmarkSteps.line(layoutsTitle + ", kept answers") {
                let loads = try kept.get()
                return try line(layoutsTitle + ", kept answers (after one pass that keeps them)", loads.layouts.load, goal: goals.layouts) + loads.layouts.costs
                    + ratio(unkept, "; %.2f× the view without them") { loads.layouts.requestsPerSecond / $0.layouts.requestsPerSecond }
                    + String(format: "; answers %.1f KB on average", loads.answerBytes / 1024) + loads.pacedText
            },
            BenchmarkSteps.line(layoutsTitle + ", from the view") {
                let layouts = try unkept.get().layouts
                return try line(layoutsTitle + ", from the view (--no-layout-cache)", layouts.load, goal: goals.layouts) + layouts.costs
            },
            BenchmarkSteps.line(layoutsTitle + ", from the store") {
                let layouts = try store.get()
                return try line(layoutsTitle + ", from the store (--no-view)", layouts.load, goal: goals.layouts) + layouts.costs
                    + ratio(unkept, "; the view answers %.2f× the store") { $0.layouts.requestsPerSecond / layouts.requestsPerSecond }
                    + ratio(kept, ", kept answers %.2f×") { $0.layouts.requestsPerSecond / layouts.requestsPerSecond }
            },
            BenchmarkSteps.line("live layout revalidations") {
                let loads = try kept.get()
                let revalidations = loads.revalidations
                return try line("live layout revalidations (If-None-Match, unchanged), kept answers", revalidations.load, goal: goals.revalidations) + revalidations.costs
                    + ratio(unkept, "; without kept answers %.0f/s") { $0.revalidations.requestsPerSecond }
                    + ratio(unkept, ": %.2f×") { revalidations.requestsPerSecond / $0.revalidations.requestsPerSecond } + loads.wideText
            },
            BenchmarkSteps.line("live public Snaps over HTTP") { try line("live public Snaps over HTTP (acknowledged, durable, into the glow)", snaps.get(), goal: goals.snaps) },
            BenchmarkSteps.line("live per-viewer frames") {
                let frames = try frames.get()
                return String(format: "live per-viewer frames (1179×2556, base, glow, own pins; %d viewers, 4 viewports, %d connections after a second of warm-up): "
                              + "%.1f/s, p99 %.0f ms, %d errors", world.tokens, frameConnections, frames.requestsPerSecond, frames.p99Milliseconds, frames.errors)
                    + ratio(scratchFrames, "; from scratch %.1f/s") { $0.requestsPerSecond }
                    + ratio(scratchFrames, ": %.2f× (goals: 60/s, p99 ≤ 50 ms, 6×)") { frames.requestsPerSecond / $0.requestsPerSecond }
            },
            BenchmarkSteps.line("live events") {
                let (latency, p99) = try latency.get()
                return String(format: "live events: %d deliveries of %d updates to %d open streams (all ready in %.1f s), p50 %.1f ms, p99 %.1f ms (%.2f× the %.0f ms goal)",
                              latency["deliveries"] as? Int ?? 0, latency["updates"] as? Int ?? 0, latency["streams"] as? Int ?? 0,
                              latency["ready"] as? Double ?? .nan, latency["p50"] as? Double ?? .nan, p99, goals.eventP99 / p99, goals.eventP99)
            },
        ])
    }
}

/// A load run on one server, with the CPU time the server spent over it.
struct ServerLoad {
    let load: ServeBenchmark.Load
    let serverCPUSeconds: Double
    var requestsPerSecond: Double { load.requestsPerSecond }

    /// The server's CPU time a request, and the cores the client (wrk, one thread) used: when they near one, wrk
    /// and not the server set the rate.
    var costs: String {
        String(format: "; server %.0f µs of CPU a request, wrk %.2f cores", serverCPUSeconds / Double(max(1, load.requests)) * 1e6, load.clientCores)
    }
}

/// A release `snapmap serve` on a free loopback port, stopped by closing its standard input.
final class ServedProcess {
    let base: String
    private let process = Process()
    private let input = Pipe()

    init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: ".build/release/snapmap")
        process.arguments = ["serve", "--port", "0", "--stop-on-stdin-eof"] + arguments
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let start = line.range(of: "http://") else {
            process.terminate()
            process.waitUntilExit()
            throw BenchmarkFailure(message: "serve printed \(line)")
        }
        base = String(line[start.lowerBound...].prefix { !$0.isWhitespace })
        readyAfter = try BenchmarkClock.best(of: 1) { try waitUntilReadinessSaysOk() }
    }

    /// Seconds from the banner to readiness saying "ok": a view loading (or loading again after the bus's first
    /// resync) answers from the store meanwhile, and a load measured then would measure the store.
    private(set) var readyAfter = 0.0
    static let readinessBound = 900.0

    private func waitUntilReadinessSaysOk() throws {
        let deadline = ContinuousClock.now + .seconds(Self.readinessBound)
        var last = ""
        while ContinuousClock.now < deadline {
            last = (try? BenchmarkProcess.run("curl", ["-s", "--max-time", "5", base + "/healthz/ready"])) ?? ""
            if last.contains("\"status\":\"ok\"") { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        stop()
        throw BenchmarkFailure(message: "readiness did not say ok within \(Self.readinessBound) s: \(last.prefix(300))")
    }

    /// Runs a load and measures the server's CPU time (user and system, from /proc) over it.
    func measured(_ load: () throws -> ServeBenchmark.Load) throws -> ServerLoad {
        let before = cpuSeconds()
        let result = try load()
        return ServerLoad(load: result, serverCPUSeconds: cpuSeconds() - before)
    }

    /// The server's CPU seconds so far (utime and stime of /proc/PID/stat, after the command's parenthesis).
    func cpuSeconds() -> Double {
        let text = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        let fields = text.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
