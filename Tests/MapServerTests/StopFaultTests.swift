import Foundation
import GeoCore
import ServerTestSupport
import Testing
@testable import MapServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The port is one server's, and a plain `kill` stops it gracefully: in-flight answers finish, streams end, the
/// process exits 0 within `stopBound`, and every write it acknowledged is in the store.
@Suite("Faults: a second server on the port, SIGTERM under load", .serialized)
struct StopFaultTests {
    @Test func aSecondServerOnTheSamePortFailsAndTheFirstKeepsServing() async throws {
        let first = try ServerFixture()
        let port = try #require(first.base.port)
        let second = try Faults.run(first, ["serve", "--port", String(port), "--demo", "--db", Faults.newDatabase("second")], timeout: 30)
        #expect(second.status == 1 && !second.signalled, "\(second.stderr)")
        #expect(second.stderr.contains("port \(port): the port is in use"), "\(second.stderr)")
        #expect(!second.stdout.contains("listening"), "\(second.stdout)")
        // Every connection still reaches the first server: its own token is known to it alone.
        for _ in 0..<16 {
            #expect(try await first.fetch("/v1/me/layout.json").0 == 200)
        }
        #expect(try await first.fetch("/healthz/ready").0 == 200)
    }

    /// A stop is heard at once while renders keep every core busy: its handler once waited on the shared thread
    /// pool, so readiness said 200 for 9 s after SIGTERM, new requests were taken, and the exit came after 19 s.
    @Test func aStopIsHeardAtOnceWhileRendersFillEveryCore() async throws {
        let server = try ServerFixture()
        let pid = server.process.processIdentifier
        let base = server.base.absoluteString
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        let frames = try (0..<RenderPool.perPersonLimit).map { index in
            try TestProcess.start(curl, ["-s", "-o", "/dev/null", "--max-time", "60", "-H", "Authorization: Bearer " + server.token,
                                         base + "/v1/me/frame.png?size=3000x3000&scale=2&zoom=\(14 + Double(index) / 7)"])
        }
        defer { frames.forEach { $0.terminate() } }
        // The renders are under way once the server has spent a second of processor time on them.
        let idle = try ProcessTimes.cpuSeconds(of: pid)
        #expect(try await Faults.eventually(within: 60) { try ProcessTimes.cpuSeconds(of: pid) - idle >= 1 })
        let drawing = frames.filter { $0.isRunning }.count
        #expect(drawing > 0, "renders were still being drawn when the stop came: curls ended with \(frames.map { $0.isRunning ? -1 : $0.terminationStatus })")
        let signalled = Date()
        kill(pid, SIGTERM)
        var ready: [String] = []
        while ready.last == nil || ready.last == "200", Date().timeIntervalSince(signalled) < Faults.stopBound {
            let probe = try TestProcess.run(curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "2", base + "/healthz/ready"])
            ready.append(probe.output)
        }
        #expect(ready.filter { $0 == "200" }.count <= 1, "readiness turned 503 (or the port closed) at once after SIGTERM: \(ready)")
        #expect(Faults.waitForExit(server.process, seconds: Faults.stopBound - Date().timeIntervalSince(signalled)),
                "exited within \(Faults.stopBound) s of SIGTERM")
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
    }

    /// Nobody reads the server's output any more (a log collector gone): it still serves, and a stop still exits 0. The
    /// last line it writes failed with EPIPE and stopped the process with a crash instead.
    @Test func aServerWhoseOutputNobodyReadsStopsWithStatusZero() async throws {
        let server = try ServerFixture()
        try server.stopReadingOutput()
        #expect(try await server.fetch("/v1/me/layout.json").0 == 200)
        let signalled = Date()
        kill(server.process.processIdentifier, SIGTERM)
        #expect(Faults.waitForExit(server.process, seconds: Faults.stopBound), "exited within \(Faults.stopBound) s of SIGTERM")
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0,
                "ended by \(server.process.terminationReason == .exit ? "exit" : "signal") \(server.process.terminationStatus) after \(Date().timeIntervalSince(signalled)) s")
    }

    @Test(arguments: 0..<Faults.rounds)
    func sigtermUnderLoadExitsZeroAndKeepsEveryAcknowledgedWrite(round: Int) async throws {
        var random = Faults.random(round: round)
        let shared = try ServerFixture.shared.get()
        let database = Faults.newDatabase("sigterm")
        let runners = try Runners(shared, database: database, count: 6)
        let server = try ServerFixture(database: database)
        let base = server.base.absoluteString
        let streams = try runners.tokens.prefix(2).map { try EventStream(server: server, token: $0) }
        for stream in streams { stream.read(until: "event: ready") }
        let reopening = (0..<3).map { ReopeningStream(base: base, token: runners.tokens[2 + $0]) }
        let killAfter = Int.random(in: 20...150, using: &random)
        let counter = Counter()
        let pid = server.process.processIdentifier
        async let frames: [Int] = withTaskGroup(of: [Int].self) { group in
            // Frames are answered later, from the render pool: their connections wait suspended meanwhile.
            for index in 0..<2 {
                group.addTask {
                    var statuses: [Int] = []
                    for step in 0..<200 {
                        var request = URLRequest(url: URL(string: base + "/v1/me/frame.png?scale=1&size=160x160&zoom=\(14 + Double(step * 2 + index) / 500)")!)
                        request.setValue("Bearer " + server.token, forHTTPHeaderField: "Authorization")
                        request.timeoutInterval = 30
                        guard let (data, response) = try? await URLSession.shared.data(for: request) else { break }
                        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                        if counter.killedAt != nil { counter.answeredWhileStopping() }
                        statuses.append(status == 200 && data.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? 200 : -status)
                    }
                    return statuses
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let acknowledged = await withTaskGroup(of: (Int, Int).self) { group in
            for (index, token) in runners.tokens.enumerated() {
                group.addTask {
                    var last = -1
                    for step in 0..<2000 {
                        guard let status = await Runners.put(base: base, token: token, step: step) else { break }
                        if status == 204 {
                            last = step
                            if counter.increment() == killAfter { counter.kill(pid, SIGTERM) }
                        }
                    }
                    return (index, last)
                }
            }
            return await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        let signalled = try #require(counter.killedAt)
        #expect(Faults.waitForExit(server.process, seconds: Faults.stopBound), "round \(round) (seed \(Faults.seed)): still running after \(Faults.stopBound) s")
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0,
                "round \(round) (seed \(Faults.seed)): exit \(server.process.terminationStatus), \(server.process.terminationReason)")
        #expect(Date().timeIntervalSince(signalled) < Faults.stopBound)
        let answered = await frames
        #expect(!answered.isEmpty && answered.allSatisfy { $0 == 200 }, "a frame is whole or refused, never cut short: \(answered)")
        for stream in streams {
            stream.read(until: "never sent")
            #expect(stream.received.contains("event: ready"), "the stream was open and then ended by the stop")
        }
        #expect(reopening.allSatisfy { $0.finished(within: Faults.stopBound) }, "streams reopened while stopping end, then are refused")
        #expect(counter.value >= killAfter, "the kill came under load")
        let lost = try runners.lost(shared, database: database, acknowledged: acknowledged)
        #expect(lost.isEmpty, "round \(round) (seed \(Faults.seed)): acknowledged and lost: \(lost)")
    }
}
