import Foundation
@testable import LiveMap
import RedisStore
import Testing

extension RedisStoreTests {
    /// The commands that read a person's facts, which a view's re-read sends (the writes' own reads run in scripts).
    static let viewReadCommands = ["hmget", "hgetall", "exists", "hexists", "sismember", "smembers", "zrangebylex"]

    /// What moves cost Redis, counted by Redis itself (`INFO commandstats` on every master): the bus carries a kept
    /// fix to the other replica's view and the writer's own view keeps it as the store does, so neither view reads
    /// anything; a settings change, which the bus does not carry, is re-read by each view (the count sees it).
    @Test func aMoveCostsTheViewsNoRead() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let replicas = try [ViewedReplica(url: local.url), ViewedReplica(url: local.url)]
        defer { for replica in replicas { replica.bus.close() } }
        let mover = PersonID(trusted: "mover")
        try replicas[0].live.addPerson(id: "mover", name: "Mover")
        for index in 0..<4 {
            try replicas[1].live.addPerson(id: "friend\(index)", name: "Friend \(index)")
            try replicas[1].live.requestFriend(PersonID(trusted: "friend\(index)"), "mover")
            try replicas[0].live.requestFriend(mover, "friend\(index)")
        }
        let start = Date()
        try replicas[0].live.setSharing(mover, ghost: "off", audience: nil, now: start)
        for replica in replicas { try replica.waitUntilHeard() }

        let moves = 20
        var last: LocationFix?
        let moved = try Self.commandCalls(local) {
            for step in 1...moves {
                let taken = start.addingTimeInterval(Double(step) / 1000)
                // The last place holds the bus text's separator.
                let fix = try LocationFix(lat: 40.70 + Double(step) / 100_000, lon: -73.95, accuracyMeters: 5, takenAt: taken, place: step == moves ? "Pier | 5" : nil,
                                          activity: Activity.allCases[step % Activity.allCases.count], speedMetersPerSecond: Double(step) / 3)
                #expect(try replicas[0].live.updateLocation(mover, fix: fix, now: taken))
                last = fix
            }
            try replicas[1].waitUntilHeard()
        }
        let stored = try RedisLiveStore(url: local.url).fix(of: mover)
        #expect(stored == last?.asStored)
        for (index, replica) in replicas.enumerated() {
            #expect(replica.view.isCurrent, "replica \(index) answers from its view")
            #expect(try replica.view.fix(of: mover) == stored, "replica \(index) holds the store's fix")
            let seen = try replica.live.visibleFriends(of: PersonID(trusted: "friend0"), at: start.addingTimeInterval(1))
            #expect(seen.map(\.fix) == [stored].compactMap { $0 }, "replica \(index) shows it")
        }
        #expect(moved["eval"] == moves, "one script a move: \(moved)")
        #expect(Self.viewReadCommands.allSatisfy { moved[$0] == nil }, "the views read nothing for \(moves) moves: \(moved)")

        let changed = try Self.commandCalls(local) {
            try replicas[0].live.setSharing(mover, ghost: "untilOff", audience: nil, now: start)
            try replicas[1].waitUntilHeard()
        }
        #expect((changed["hmget"] ?? 0) >= 2, "each view re-read the settings: \(changed)")

        // A birthday is re-read with the person, in the same round, by each view.
        let theDay = try Birthday(month: 2, day: 29)
        let birthday = try Self.commandCalls(local) {
            try replicas[0].live.setBirthday(mover, theDay)
            try replicas[1].waitUntilHeard()
        }
        for (index, replica) in replicas.enumerated() {
            #expect(try replica.view.candidate(viewer: PersonID(trusted: "friend0"), person: mover)?.birthday == theDay, "replica \(index) holds it")
        }
        #expect((birthday["hmget"] ?? 0) >= 2 * replicas.count && birthday["hget"] == nil, "the person and the fix, no birthday of its own: \(birthday)")
    }

    /// The calls of each command (lowercase) the cluster's masters ran during `body`, from `INFO commandstats`;
    /// commands that did not run are absent.
    static func commandCalls(_ local: LocalRedisCluster, during body: () throws -> Void) throws -> [String: Int] {
        let before = try commandCalls(local)
        try body()
        return try commandCalls(local).reduce(into: [:]) { calls, entry in
            let ran = entry.value - (before[entry.key] ?? 0)
            if ran > 0 { calls[entry.key] = ran }
        }
    }

    static func commandCalls(_ local: LocalRedisCluster) throws -> [String: Int] {
        var calls: [String: Int] = [:]
        for port in try local.masters() {
            let text = try RedisConnection(host: "127.0.0.1", port: port).command(["INFO", "commandstats"]).text ?? ""
            // Lines read "cmdstat_hmget:calls=12,usec=…".
            for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
                let parts = line.dropFirst("cmdstat_".count).split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let field = parts[1].split(separator: ",").first, field.hasPrefix("calls="),
                      let count = Int(field.dropFirst("calls=".count)) else { continue }
                calls[String(parts[0]), default: 0] += count
            }
        }
        return calls
    }
}
