import Foundation
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// kill -9 at a random moment (seeded: `SNAPMAP_FAULT_SEED`) of a burst of location updates: every update answered
/// 204 is in the store afterwards, and the store starts again whole.
@Suite("Acknowledged updates survive kill -9", .serialized)
struct DurabilityTests {
    @Test(arguments: 0..<Faults.rounds)
    func everyAcknowledgedUpdateIsThereAfterAKillAtARandomMoment(round: Int) async throws {
        var random = Faults.random(round: round)
        let shared = try ServerFixture.shared.get()
        let database = Faults.newDatabase("durable")
        let runners = try Runners(shared, database: database, count: 8)
        let server = try ServerFixture(database: database)
        let base = server.base.absoluteString
        let killAfter = Int.random(in: 1...300, using: &random)
        let counter = Counter()
        let pid = server.process.processIdentifier
        let acknowledged = await withTaskGroup(of: (Int, Int).self) { group in
            for (index, token) in runners.tokens.enumerated() {
                group.addTask {
                    var last = -1
                    for step in 0..<2000 {
                        guard let status = await Runners.put(base: base, token: token, step: step) else { break }
                        if status == 204 {
                            last = step
                            if counter.increment() == killAfter { kill(pid, SIGKILL) }
                        }
                    }
                    return (index, last)
                }
            }
            return await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        #expect(Faults.waitForExit(server.process, seconds: 10))
        #expect(server.process.terminationReason == .uncaughtSignal, "the server was killed mid-burst (after \(killAfter) acknowledged)")
        #expect(acknowledged.values.contains { $0 >= 0 }, "some updates were acknowledged before the kill")
        let lost = try runners.lost(shared, database: database, acknowledged: acknowledged)
        #expect(lost.isEmpty, "round \(round) (seed \(Faults.seed)), kill after \(killAfter): acknowledged and lost: \(lost)")
        let restarted = try ServerFixture(database: database)
        #expect(try await restarted.fetch("/healthz/ready").0 == 200, "the killed store passes the start's quick_check and serves")
    }
}
