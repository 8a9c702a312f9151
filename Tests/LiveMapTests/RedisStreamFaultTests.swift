import Foundation
import LiveMap
import RedisStore
import ServerTestSupport
import Testing

/// Event streams through a lost master, as a phone sees them: a second `snapmap serve` holds the viewer's stream
/// while moves go through the long-running one, and the master killed holds the viewer's token key (and, one time in
/// three, their own keys: then their friends cannot be read until the promotion, and nothing may be said meanwhile).
extension RedisFaultTests {
    /// A move through one server reaches a stream on the other within this, during a failover and after it (the
    /// bus heals within 0.37 s of the promotion; a stream that stalled for the sweep waited 10 s).
    static let streamBound = LiveView.stalenessBound
    /// The latitudes of the probe's moves are counted from here (far from every other test's).
    static let probeLatitude = 41.2

    /// The longest a probe waits for its move: a failover and the stream's bound.
    static let probeWait = 10.0

    /// One move through the first server: when it started, curl's time for it, its status, and how long after its
    /// acknowledgement the stream had it (nil: not within `probeWait`).
    struct Probe: CustomStringConvertible {
        let started: Date
        /// The status (0: no answer) and curl's time for it.
        let status: Int
        let seconds: Double
        let delay: Double?
        /// When it was acknowledged (counted from curl's start, after the process spawned), and reached the stream.
        var acknowledged: Date { started.addingTimeInterval(seconds) }
        var arrived: Date? { delay.map { acknowledged.addingTimeInterval($0) } }
        var description: String { "\(status) in \(String(format: "%.3f s", seconds)), on the stream \(delay.map { String(format: "%.3f s", $0) } ?? "never") after" }
    }

    @Test func aKilledTokenShardHidesNoFriendAndHoldsNoOtherShardsMoves() throws {
        let (cluster, first) = try Self.fixture.get()
        try cluster.restoreReplicas()
        let second = try ServerFixture(storeURL: cluster.url, serveOptions: Self.sameClock())
        let viewer = PersonID(trusted: "samriv")
        let viewerShard = try cluster.slotOwners()[Self.slot(viewer)]
        for victim in FaultPlan.pick(try cluster.masters(), salt: 4) {
            try cluster.restoreReplicas()
            let owners = try cluster.slotOwners()
            let token = try Self.token(of: viewer, server: first) { owners[$0] == victim }
            let stream = try EventStream(server: second, token: token)
            try #require(stream.read(until: "event: ready"), "the viewer's stream opens: \(stream.received)")
            let friends = Self.events(stream.received).first { $0.name == "ready" }.map { Self.ids(inArray: $0.data) } ?? []
            let mover = try #require(friends.map(PersonID.init(trusted:)).first { owners[Self.slot($0)] != victim }, "a friend off the victim's shard: \(friends)")
            let moverToken = try Self.token(of: mover, server: first) { owners[$0] != victim }
            let probes = ProbeLog()
            let sender = Thread {
                var step = 0
                while probes.running {
                    step += 1
                    probes.add(Self.probe(mover, step: step, token: moverToken, through: first, stream: stream))
                    Thread.sleep(forTimeInterval: 0.2)
                }
                probes.finish()
            }
            sender.start()
            _ = probes.wait(seconds: 5) { $0.count >= 2 }
            let readiness = ReadinessLog(server: second)
            let killed = Date()
            try cluster.kill(victim)
            try cluster.waitForFailover(from: victim)
            let promoted = Date()
            _ = probes.wait(seconds: 3) { _ in false }
            probes.stop()
            // The second server's bus heard nothing from the lost master until its replica was promoted: readiness
            // said so (still 200: the other shards serve) while it lasted, and "ok" again once the bus caught up.
            let recovered = readiness.wait(for: "ok", seconds: 10)
            let answers = readiness.stop()
            let degraded = answers.filter { $0.status == "degraded" }
            #expect(degraded.contains { $0.asked > killed.addingTimeInterval(LiveView.stalenessBound + 0.5) && $0.asked < promoted } || promoted.timeIntervalSince(killed) < LiveView.stalenessBound + 1,
                    "readiness said the bus was behind during the failover: \(answers.map { "\(Self.seconds($0.asked.timeIntervalSince(killed))) \($0.code) \($0.status)" })")
            #expect(recovered && degraded.allSatisfy { $0.code == 200 }, "readiness is ok again after the promotion, and degraded was 200")
            try cluster.start(victim)
            let context = "seed \(FaultPlan.seed), master \(victim) (the viewer's token shard\(victim == viewerShard ? " and their own" : "")) killed, promoted after \(promoted.timeIntervalSince(killed)) s"
            let log = probes.all
            let during = log.filter { $0.started > killed }
            #expect(during.count >= 5, "\(context): moves were sent through the fault: \(during)")
            // Moves reach the stream within the bound of their acknowledgement; when the viewer's own keys were on the
            // lost shard, within the bound of the promotion (their blocks and settings cannot be read before).
            let ownShard = victim == viewerShard
            let late = log.filter { probe in
                let due = (ownShard ? max(probe.acknowledged, promoted) : probe.acknowledged).addingTimeInterval(Self.streamBound)
                return probe.status != 204 || (probe.arrived ?? .distantFuture) > due
            }
            let lateText = late.prefix(4).map { "\($0) at \(String(format: "%.2f", $0.started.timeIntervalSince(killed))) s" }
            #expect(late.isEmpty, "\(context): every move of \(mover.rawValue) (another shard) is acknowledged and on the other server's stream within \(Self.streamBound) s (of the promotion when the viewer's keys were lost): \(lateText)")
            let told = Self.events(stream.received).map(\.name)
            #expect(!told.contains("disappear") && !told.contains("appear") && told.filter { $0 == "ready" }.count == 1,
                    "\(context): nobody changed but \(mover.rawValue)'s place, so the stream only moves: \(told.filter { $0 != "move" })")
            #expect(!stream.waitForEnd(timeout: 0), "\(context): the stream stays open through a failover shorter than the hub's bound (5 s)")
            let delays = during.compactMap { probe in probe.arrived.map { $0.timeIntervalSince(ownShard ? max(probe.acknowledged, promoted) : probe.acknowledged) } }
            FaultPlan.report("master \(victim) killed with a stream's token\(ownShard ? " and viewer" : "") on it",
                             "promoted after \(Self.seconds(promoted.timeIntervalSince(killed))), \(during.count) moves from another shard during and after the failover, on the other server's stream "
                             + "\(ownShard ? "(counted from the promotion for those made before it) " : "")after "
                             + "\(Self.seconds(delays.min() ?? 0))–\(Self.seconds(delays.max() ?? .infinity)), events besides moves: \(told.filter { $0 != "move" })")
            try cluster.waitForHealthyCluster()
        }
    }

    /// A new token of `person` (minted by the operator's command) whose key's slot satisfies `wanted`.
    static func token(of person: PersonID, server: ServerFixture, where wanted: (Int) -> Bool) throws -> String {
        for _ in 0..<40 {
            let token = try server.operate("users", "token", person.rawValue)
            if wanted(RedisCluster.slot(of: "{t:\(LiveMapService.tokenHash(token))}")) { return token }
        }
        throw RedisFailure(description: "no token of \(person.rawValue) landed on the wanted shard in 40 tries")
    }

    /// Moves `person` through `server` to latitude step `step` and waits for the move on `stream`.
    static func probe(_ person: PersonID, step: Int, token: String, through server: ServerFixture, stream: EventStream) -> Probe {
        let lat = probeLatitude + Double(step) * WriteTraffic.stepDegrees
        let started = Date()
        guard let answer = try? TimedRequest.send("PUT", server.base.appendingPathComponent("v1/me/location"), token: token,
                                                  body: "{\"lat\": \(lat), \"lon\": -73.95, \"accuracyMeters\": 5}", limit: 10) else {
            return Probe(started: started, status: 0, seconds: .infinity, delay: nil)
        }
        let arrived = stream.read(timeout: probeWait) { text in
            events(text).contains { $0.name == "move" && $0.data.contains("\"\(person.rawValue)\"") && abs(latitude(in: $0.data) - lat) < stepDegreesHalf }
        }
        // Counted from the acknowledgement: curl's start (after the process spawned) plus its total time.
        let delay = arrived ? max(0, Date().timeIntervalSince(started) - answer.seconds) : nil
        return Probe(started: started, status: answer.status, seconds: answer.seconds, delay: delay)
    }

    static let stepDegreesHalf = WriteTraffic.stepDegrees / 2

    /// The Server-Sent Events in `text`: each one's name and data.
    static func events(_ text: String) -> [(name: String, data: String)] {
        text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7) else { return nil }
            return (String(name), lines.first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) } ?? "")
        }
    }

    /// The ids of a JSON array of friends.
    static func ids(inArray data: String) -> [String] {
        let array = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [[String: Any]] ?? []
        return array.compactMap { $0["id"] as? String }
    }

    static func latitude(in data: String) -> Double {
        ((try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any])?["lat"] as? Double ?? .nan
    }
}

/// The probes made so far, and whether the sender should go on.
final class ProbeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var probes: [RedisFaultTests.Probe] = []
    private var stopped = false
    private var finished = false

    var running: Bool { lock.withLock { !stopped } }
    var all: [RedisFaultTests.Probe] { lock.withLock { probes } }

    func add(_ probe: RedisFaultTests.Probe) { lock.withLock { probes.append(probe) } }
    func finish() { lock.withLock { finished = true } }

    /// Stops the sender and waits for its last probe.
    func stop() {
        lock.withLock { stopped = true }
        while !lock.withLock({ finished }) { usleep(10_000) }
    }

    /// Polls until `condition` holds over the probes so far, for at most `seconds`; whether it held.
    func wait(seconds: Double, until condition: ([RedisFaultTests.Probe]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(all) { return true }
            usleep(20_000)
        }
        return condition(all)
    }
}

/// `/healthz/ready` of a server asked by curl every 0.1 s on a thread of its own: when each was asked, its status
/// code and the `status` of its body.
final class ReadinessLog: @unchecked Sendable {
    struct Answer {
        let asked: Date
        let code: Int
        let status: String
    }

    private let lock = NSLock()
    private var answers: [Answer] = []
    private var (stopped, finished) = (false, false)

    init(server: ServerFixture) {
        let arguments = ["-s", "--max-time", "2", "-w", "\n%{http_code}", server.base.appendingPathComponent("healthz/ready").absoluteString]
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopped }) {
                let asked = Date()
                if let output = try? TestProcess.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments).output {
                    let lines = output.split(separator: "\n")
                    let body = try? JSONDecoder().decode([String: String].self, from: Data((lines.first ?? "").utf8))
                    let answer = Answer(asked: asked, code: Int(lines.last ?? "") ?? 0, status: body?["status"] ?? "")
                    lock.withLock { answers.append(answer) }
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            lock.withLock { finished = true }
        }
    }

    /// Waits until an answer asked from now on says `status`; whether one did within `seconds`.
    func wait(for status: String, seconds: Double) -> Bool {
        let from = Date()
        while Date().timeIntervalSince(from) < seconds {
            if lock.withLock({ answers.contains { $0.asked >= from && $0.status == status } }) { return true }
            usleep(50_000)
        }
        return false
    }

    /// Stops asking; every answer.
    func stop() -> [Answer] {
        lock.withLock { stopped = true }
        while !lock.withLock({ finished }) { usleep(10_000) }
        return lock.withLock { answers }
    }
}
