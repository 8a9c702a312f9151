import Foundation
import LiveMap
import RedisStore
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The faults seen over HTTP, through the long-running `snapmap serve` of the fault suite.
extension RedisFaultTests {
    /// One answer: its status, `Retry-After`, how long it took; or the transport error when there was none.
    struct Answer: CustomStringConvertible, Sendable {
        let person: Int
        let step: Int
        let started: Date
        let seconds: Double
        let status: Int
        let retryAfter: String?
        let error: String?
        var description: String { "\(error ?? String(status)) in \(String(format: "%.3f", seconds)) s (Retry-After \(retryAfter ?? "none"))" }
    }

    /// HTTP fixes are counted from here: far from the demo's own, so an old fix is never taken for a new one.
    static let httpLatitude = 41.0

    /// A person whose keys live on `master`'s slots, added with the operator's commands; their token.
    static func signedInPerson(on master: Int, server: ServerFixture, cluster: LocalRedisCluster) throws -> String {
        let owners = try cluster.slotOwners()
        let id = try #require((0..<1000).map { "probe\($0)" }.first { owners[RedisCluster.slot(of: "{p:\($0)}")] == master })
        _ = try? server.operate("users", "add", id, "--name", "Probe")
        return try server.operate("users", "token", id)
    }

    /// `PUT /v1/me/location` as `token`, its latitude telling `step`; a transport error is an answer without a status.
    static func locationUpdate(server: ServerFixture, token: String, person: Int = 0, step: Int = 0) async -> Answer {
        let lat = httpLatitude + Double(step) * WriteTraffic.stepDegrees
        let started = Date()
        // Timed by curl on a thread of its own: the server's time, never a wait for a thread of the test process.
        let result: Result<TimedRequest, any Error> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Result {
                    try TimedRequest.send("PUT", server.base.appendingPathComponent("v1/me/location"), token: token,
                                          body: "{\"lat\": \(lat), \"lon\": -73.95, \"accuracyMeters\": 5}", limit: 30)
                })
            }
        }
        switch result {
        case .success(let answer) where answer.status != 0:
            return Answer(person: person, step: step, started: started, seconds: answer.seconds, status: answer.status,
                          retryAfter: answer.headers["retry-after"], error: nil)
        case .success(let answer):
            return Answer(person: person, step: step, started: started, seconds: answer.seconds, status: 0, retryAfter: nil, error: "no answer")
        case .failure(let error):
            return Answer(person: person, step: step, started: started, seconds: Date().timeIntervalSince(started), status: 0, retryAfter: nil,
                          error: "\(error)")
        }
    }

    @Test func withEveryNodeDownEveryRequestIsAnswered503WithinItsBound() async throws {
        let (cluster, server) = try Self.fixture.get()
        try cluster.restoreReplicas()
        let ids = ["jordan", "maya", "noah", "theo", "leo", "priya"]
        let tokens = try ids.map { try server.operate("users", "token", $0) }
        let answers = AnswerLog()
        let health = HealthProbes(server: server)
        let times = try await withThrowingTaskGroup(of: (Date, Date, Date)?.self) { group in
            for (person, token) in tokens.enumerated() {
                group.addTask {
                    var step = 0
                    while answers.running {
                        step += 1
                        answers.add(await Self.locationUpdate(server: server, token: token, person: person, step: step))
                        try await Task.sleep(for: .milliseconds(150))
                    }
                    return nil
                }
            }
            group.addTask {
                defer { answers.stop() }
                guard await answers.wait(seconds: 10, until: { log in Set(log.filter { $0.status == 204 }.map(\.person)).count == ids.count }) else { return nil }
                try cluster.killAll()
                let down = Date()
                try await Task.sleep(for: .seconds(FaultPlan.outageSeconds))
                // The outage lasts until a readiness probe made during it has answered: under a loaded suite a probe
                // (two curl processes) once took longer than the whole outage, and none fell inside it.
                _ = await health.wait(seconds: 30) { $0.contains { $0.started > down && $0.ready.status == 503 } }
                let restarted = Date()
                try cluster.startAll()
                try cluster.waitForHealthyCluster()
                let up = Date()
                answers.healed = cluster.waitForBusSubscribers(1, seconds: 5)
                _ = await answers.wait(seconds: 20) { log in Set(log.filter { $0.status == 204 && $0.started > up }.map(\.person)).count == ids.count }
                return (down, restarted, up)
            }
            var result: (Date, Date, Date)?
            for try await outcome in group { result = result ?? outcome }
            return result
        }
        let (down, restarted, up) = try #require(times, "every person's updates were acknowledged before the outage")
        let readyAgain = health.waitForReady(seconds: 5)
        let probes = health.stop()
        let log = answers.all
        let context = "seed \(FaultPlan.seed), every node down for \(up.timeIntervalSince(down)) s"
        // Readiness asks every master (a quarter of a second at most) and keeps its answer a second.
        let unready = probes.filter { $0.ready.status == 503 && $0.started > down && $0.started < restarted }
        #expect(!unready.isEmpty, "\(context): readiness is 503 while every node is down: \(probes.filter { $0.started > down && $0.started < restarted }.map(\.ready).prefix(4))")
        let saidOk = probes.filter { $0.ready.status == 200 && $0.started > down.addingTimeInterval(RedisFaultTests.readinessLag) && $0.started < restarted }
        #expect(saidOk.isEmpty, "\(context): readiness says ok with every node down (past \(RedisFaultTests.readinessLag) s): \(saidOk.prefix(3).map(\.ready))")
        #expect(readyAgain, "\(context): readiness is 200 again once the cluster is whole: the last answers \(probes.suffix(3).map(\.ready))")
        #expect(probes.allSatisfy { $0.live.status == 200 }, "\(context): liveness is about the process: \(probes.filter { $0.live.status != 200 }.prefix(3).map(\.live))")
        let slowestProbe = probes.map(\.ready.seconds).max() ?? 0
        #expect(slowestProbe <= 1.0, "\(context): a readiness answer takes under a second: the slowest took \(slowestProbe) s")
        let unanswered = log.filter { $0.error != nil }
        #expect(unanswered.isEmpty, "\(context): every request is answered: \(unanswered.count) of \(log.count) were not, \(unanswered.prefix(2))")
        let slowest = log.map(\.seconds).max() ?? 0
        let slow = log.filter { $0.seconds > Self.callBound }.map { "\($0) at \(String(format: "%.2f", $0.started.timeIntervalSince(down))) s" }
        // The answers are timed by curl (timed in the async test they once read 4.8 s against 2.5: the test's wait).
        #expect(slowest <= Self.callBound + 0.5, "\(context): every answer within \(Self.callBound) s: the slowest took \(slowest) s: \(slow.prefix(3))")
        let unclean = log.filter { $0.status != 204 && !($0.status == 503 && $0.retryAfter != nil) && $0.status != 429 }
        #expect(unclean.isEmpty, "\(context): a request is acknowledged or refused with 503 and Retry-After: \(unclean.prefix(3))")
        #expect(log.contains { $0.status == 503 && $0.started > down && $0.started < up }, "\(context): the outage was seen")
        #expect(ids.indices.allSatisfy { person in log.contains { $0.person == person && $0.status == 204 && $0.started > up } },
                "\(context): every person's updates are acknowledged again once the cluster is back")
        let store = try RedisLiveStore(url: cluster.url)
        for (person, id) in ids.enumerated() {
            let acknowledged = log.last { $0.person == person && $0.status == 204 }?.step ?? 0
            let stored = WriteTraffic.step(of: try store.fix(of: PersonID(trusted: id)), base: Self.httpLatitude) ?? 0
            #expect(stored >= acknowledged, "\(context): \(id)'s update \(acknowledged) was acknowledged, and the store has \(stored)")
        }
        let healed = answers.healed
        #expect(healed != nil, "\(context): the server subscribed again: \((try? cluster.busSubscribers()) ?? [])")
        let back = log.filter { $0.status == 204 && $0.started > up }.map { $0.started.timeIntervalSince(up) + $0.seconds }.min() ?? .infinity
        FaultPlan.report("every node down for \(Self.seconds(up.timeIntervalSince(down)))",
                         "\(log.filter { $0.status == 503 }.count) of \(log.count) answers 503 with Retry-After, none unanswered, slowest \(Self.seconds(slowest)), "
                         + "readiness 503 from \(Self.seconds(unready.map { $0.started.timeIntervalSince(down) }.min() ?? .infinity)) after the kill (slowest probe \(Self.seconds(slowestProbe))), "
                         + "acknowledged again \(Self.seconds(back)) after the cluster was whole, the bus \(Self.seconds(healed ?? .infinity)) after")
    }
}

/// The answers of concurrent senders, and whether they should go on.
final class AnswerLog: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [RedisFaultTests.Answer] = []
    private var stopped = false
    private var busHealed: Double?

    var running: Bool { lock.withLock { !stopped } }
    /// Seconds from the cluster being whole to every bus channel subscribed again.
    var healed: Double? {
        get { lock.withLock { busHealed } }
        set { lock.withLock { busHealed = newValue } }
    }
    var all: [RedisFaultTests.Answer] { lock.withLock { answers } }

    func add(_ answer: RedisFaultTests.Answer) { lock.withLock { answers.append(answer) } }
    func stop() { lock.withLock { stopped = true } }

    /// Polls until `condition` holds over the answers so far, for at most `seconds`; whether it held.
    func wait(seconds: Double, until condition: ([RedisFaultTests.Answer]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(all) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(all)
    }
}

extension RedisFaultTests {
    /// How long after a fault readiness may still say ok: its kept answer (1 s), a probe (0.25 s) and slack.
    static let readinessLag = 2.0
}
