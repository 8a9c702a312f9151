import Foundation
import GeoCore
import ServerTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the fault tests share: how many rounds from which seed (`SNAPMAP_FAULT_ROUNDS`, `SNAPMAP_FAULT_SEED`:
/// `make test` runs a sample, `make faults` more), new store paths, and running `snapmap` to its end.
enum Faults {
    static var rounds: Int { ProcessInfo.processInfo.environment["SNAPMAP_FAULT_ROUNDS"].flatMap(Int.init) ?? 2 }
    static var seed: UInt64 { ProcessInfo.processInfo.environment["SNAPMAP_FAULT_SEED"].flatMap { UInt64($0) } ?? 26 }
    /// How long a stopped server may take to exit: HTTPServer.stopGrace (10 s) and the time to leave after it.
    static let stopBound = 12.0

    /// The random moments of one round, the same for the same seed and round.
    static func random(round: Int) -> SplitMix64 {
        SplitMix64(seed: seed &+ UInt64(round) &* 0x9E37_79B9)
    }

    /// A path for a new store in a directory of its own.
    static func newDatabase(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-\(name)-\(UUID().uuidString)/live.db").path
    }

    struct Finished {
        let status: Int32
        let signalled: Bool
        let stdout: String
        let stderr: String
        let seconds: Double
    }

    /// Runs `snapmap` with `arguments` to its end (killed after `timeout`), its output in files (a pipe that fills
    /// would stall it).
    static func run(_ server: ServerFixture, _ arguments: [String], timeout: Double = 60) throws -> Finished {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out"), err = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = server.executable
        process.arguments = arguments
        process.currentDirectoryURL = server.root
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let started = Date()
        try TestProcess.launch(process)
        let ended = waitForExit(process, seconds: timeout)
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return Finished(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                        stdout: try String(contentsOf: out, encoding: .utf8), stderr: try String(contentsOf: err, encoding: .utf8),
                        seconds: Date().timeIntervalSince(started))
    }

    /// Waits up to `seconds` for `process` to end; false when it is still running.
    static func waitForExit(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return !process.isRunning
    }

    /// Polls `condition` every 50 ms until it holds or `seconds` pass; returns whether it held.
    static func eventually(within seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }
}

/// People on one store who send fixes with increasing times, as phones do; the store afterwards must hold, for
/// each, a fix at least as new as the last one answered 204.
struct Runners {
    let ids: [String]
    let tokens: [String]
    /// Fix times are `epoch + step` seconds (2026-11-29T17:00Z, an hour before the demo clock: fixes must be current).
    static let epoch = 1_795_971_600.0

    /// Adds `count` runners to the store at `database` (made and seeded when new) and mints their tokens.
    init(_ server: ServerFixture, database: String, count: Int) throws {
        ids = (0..<count).map { "runner\($0)" }
        var tokens: [String] = []
        for id in ids {
            _ = try Faults.run(server, ["users", "add", id, "--name", "Runner", "--db", database])
            tokens.append(try Faults.run(server, ["users", "token", id, "--db", database]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        self.tokens = tokens
    }

    static func time(_ step: Int) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: epoch + Double(step)))
    }

    /// One PUT of runner's fix at `step`; the status, or nil when no answer came (refused, closed, timed out).
    static func put(base: String, token: String, step: Int) async -> Int? {
        var request = URLRequest(url: URL(string: base + "/v1/me/location")!)
        request.httpMethod = "PUT"
        request.timeoutInterval = 20
        request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
        request.httpBody = Data("{\"lat\": 40.7, \"lon\": -73.95, \"accuracyMeters\": 5, \"at\": \"\(time(step))\"}".utf8)
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    /// The runners whose last acknowledged fix (`acknowledged[i]`, a step) is not in the store at `database`.
    func lost(_ server: ServerFixture, database: String, acknowledged: [Int: Int]) throws -> [String] {
        var lost: [String] = []
        for (index, id) in ids.enumerated() {
            guard let step = acknowledged[index], step >= 0 else { continue }
            // A fix at the acknowledged time is ignored exactly when the store holds one at least as new.
            let probe = try Faults.run(server, ["locate", id, "--at", "40.7,-73.95", "--taken", Self.time(step), "--clock", "2026-11-29T18:00:00Z",
                                                "--db", database])
            if !probe.stdout.hasPrefix("ignored") { lost.append("\(id) step \(step): \(probe.stdout)\(probe.stderr)") }
        }
        return lost
    }
}

/// What the load's tasks share: acknowledged writes, when the signal went, answers that came after it.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var killed: Date?
    private var lateAnswers = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    var killedAt: Date? {
        lock.lock()
        defer { lock.unlock() }
        return killed
    }

    var answeredAfterTheSignal: Int {
        lock.lock()
        defer { lock.unlock() }
        return lateAnswers
    }

    func kill(_ pid: pid_t, _ signal: Int32) {
        lock.lock()
        killed = Date()
        lock.unlock()
        _ = Glibc.kill(pid, signal)
    }

    func answeredWhileStopping() {
        lock.lock()
        lateAnswers += 1
        lock.unlock()
    }

    /// Adds one and returns the new count.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}

/// A phone that reopens its event stream whenever it ends (as the viewer does), through curl on a thread of its
/// own, until the server refuses the connection; so streams open while the server stops.
final class ReopeningStream: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var count = 0

    init(base: String, token: String) {
        Thread.detachNewThread { [self] in
            while true {
                let curl = Process()
                curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                curl.arguments = ["-sN", "--max-time", "20", "-o", "/dev/null", "-H", "Authorization: Bearer \(token)", base + "/v1/me/events"]
                guard (try? TestProcess.launch(curl)) != nil else { break }
                curl.waitUntilExit()
                // curl's 7: the connection was refused (the server has stopped listening).
                if curl.terminationStatus == 7 { break }
                lock.lock()
                count += 1
                lock.unlock()
            }
            done.signal()
        }
    }

    /// Streams that were opened and ended.
    var ended: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    /// Whether the loop ended (refused) within `seconds`.
    func finished(within seconds: Double) -> Bool {
        done.wait(timeout: .now() + seconds) == .success
    }
}
