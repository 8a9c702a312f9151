import Foundation
import ServerTestSupport

/// `/healthz/ready` and `/healthz/live` asked every quarter of a second by curl, on a thread of its own.
final class HealthProbes: @unchecked Sendable {
    /// One answer: its status (0: none), curl's time for it, and the reason it gave.
    struct Answer: CustomStringConvertible {
        let status: Int
        let seconds: Double
        let reason: String?
        var description: String { "\(status) in \(String(format: "%.3f", seconds)) s\(reason.map { " (\($0))" } ?? "")" }

        /// `GET url` by curl, giving up after `limit` seconds.
        static func get(_ url: URL, limit: Double) throws -> Answer {
            let arguments = ["-s", "--max-time", String(limit), "-w", "\n%{http_code} %{time_total}", url.absoluteString]
            let lines = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments).output.split(separator: "\n", omittingEmptySubsequences: false)
            let fields = lines.last?.split(separator: " ") ?? []
            let body = try? JSONDecoder().decode([String: String].self, from: Data(lines.dropLast().joined(separator: "\n").utf8))
            return Answer(status: fields.first.flatMap { Int($0) } ?? 0, seconds: fields.dropFirst().first.flatMap { Double($0) } ?? .infinity,
                          reason: body?["reason"])
        }
    }

    struct Probe {
        let started: Date
        let ready: Answer
        let live: Answer
    }

    private let lock = NSLock()
    private var probes: [Probe] = []
    private var stopped = false
    private var finished = false

    init(server: ServerFixture) {
        Thread.detachNewThread { [self] in
            while lock.withLock({ !stopped }) {
                let started = Date()
                if let ready = try? Answer.get(server.base.appendingPathComponent("healthz/ready"), limit: 5),
                   let live = try? Answer.get(server.base.appendingPathComponent("healthz/live"), limit: 5) {
                    lock.withLock { probes.append(Probe(started: started, ready: ready, live: live)) }
                }
                Thread.sleep(forTimeInterval: 0.25)
            }
            lock.withLock { finished = true }
        }
    }

    /// Polls until a readiness probe started from now on answers 200; whether one did within `seconds`.
    func waitForReady(seconds: Double) -> Bool {
        let from = Date()
        while Date().timeIntervalSince(from) < seconds {
            if lock.withLock({ probes.contains { $0.started >= from && $0.ready.status == 200 } }) { return true }
            usleep(50_000)
        }
        return false
    }

    /// Polls until `condition` holds over the probes so far, for at most `seconds`; whether it held.
    func wait(seconds: Double, until condition: ([Probe]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(lock.withLock({ probes })) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(lock.withLock { probes })
    }

    /// Stops probing; every probe made.
    func stop() -> [Probe] {
        lock.withLock { stopped = true }
        while !lock.withLock({ finished }) { usleep(10_000) }
        return lock.withLock { probes }
    }
}
