import Foundation
import GeoCore
@testable import LiveMap
@testable import RedisStore
import Testing

extension RedisStoreTests {
    /// A deleted account leaves no byte in any node's files either: each node's append-only file logged their name,
    /// places and Snaps as they were written, and after the removal no file of a master or a replica holds them, while
    /// the person who stays is still there (so the check reads what the nodes keep).
    @Test func aRemovedPersonLeavesNoByteInAnyNodesFiles() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let store = try RedisLiveStore(url: local.url, clock: { StoreConformance.t0 })
        let tag = UUID().uuidString.prefix(8).lowercased()
        let (gone, kept) = (try PersonID("zora-\(tag)"), try PersonID("ulla-\(tag)"))
        let (goneName, keptName, hideout) = ("Zora Quimby \(tag)", "Ulla Varga \(tag)", "Quimby Hideout \(tag)")
        _ = try store.addPerson(Person(id: gone, name: goneName, color: "#FF5FA2"), settings: .newPerson)
        _ = try store.addPerson(Person(id: kept, name: keptName, color: "#5C6BC0"), settings: .newPerson)
        try store.setFootsteps(on: true, of: gone)
        for (index, id) in [gone, kept].enumerated() {
            _ = try store.recordFix(LocationFix(lat: 40.7141 + Double(index) / 100, lon: -73.9512, accuracyMeters: 5,
                                                takenAt: StoreConformance.t0, place: hideout), of: id)
        }
        try store.addSnaps([PublicSnap(person: gone, coordinate: Coordinate(lat: 40.7141, lon: -73.9512), takenAt: StoreConformance.t0)])
        #expect(try local.filesHold(goneName) && local.filesHold(hideout), "the check reads the nodes' files")

        #expect(try store.removePerson(gone))
        try local.waitForRewrites()
        for needle in [gone.rawValue, goneName] { #expect(try !local.filesHold(needle), "\(needle) is still in a node's files") }
        #expect(try local.filesHold(keptName), "the person who stays is still in the files")
    }

    /// No node's slow log names a removed person or their place once the removal is done: every command is logged
    /// here (a threshold of 0 µs stands for the slow ones a loaded node logs, the removal's own fork among their causes).
    @Test func aRemovedPersonLeavesNothingInAnyNodesSlowLog() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let nodes = try local.ports.map { try RedisConnection(host: "127.0.0.1", port: $0) }
        let settings = try nodes.map { node in try ["slowlog-log-slower-than", "slowlog-max-len"].map { try node.command(["CONFIG", "GET", $0]).elements.last?.text ?? "" } }
        for node in nodes { _ = try node.command(["CONFIG", "SET", "slowlog-log-slower-than", "0", "slowlog-max-len", "4096"]) }
        defer { for (node, old) in zip(nodes, settings) { _ = try? node.command(["CONFIG", "SET", "slowlog-log-slower-than", old[0], "slowlog-max-len", old[1]]) } }
        let store = try RedisLiveStore(url: local.url, clock: { StoreConformance.t0 })
        let (gone, hideout) = (try PersonID("slow-zora"), "Quimby Slow Hideout")
        _ = try store.addPerson(Person(id: gone, name: "Zora Slowlog", color: "#FF5FA2"), settings: .newPerson)
        _ = try store.recordFix(LocationFix(lat: 40.7141, lon: -73.9512, accuracyMeters: 5, takenAt: StoreConformance.t0, place: hideout), of: gone)
        func words(_ reply: RedisReply) -> [String] { reply.text.map { [$0] } ?? reply.elements.flatMap(words) }
        let logged = { try nodes.flatMap { try words($0.command(["SLOWLOG", "GET", "4096"])) }.joined(separator: " ") }
        #expect(try logged().contains(hideout), "the check reads the slow logs")

        #expect(try store.removePerson(gone))
        let left = try logged()
        for needle in [gone.rawValue, hideout, "Zora Slowlog"] { #expect(!left.contains(needle), "\(needle) is in a node's slow log") }
    }
}

extension LocalRedisCluster {
    /// Whether any file of any node (its append-only files and their manifest, its configuration) holds `needle`.
    func filesHold(_ needle: String) throws -> Bool {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.contains { (try? Data(contentsOf: $0))?.range(of: Data(needle.utf8)) != nil }
    }

    /// Returns once no node has an append-only file rewrite running or waiting (as each node's `INFO persistence` says).
    func waitForRewrites() throws {
        try waitFor("every node's append-only file rewritten") {
            ports.allSatisfy { port in
                guard let info = try? RedisConnection(host: "127.0.0.1", port: port).command(["INFO", "persistence"]).text else { return false }
                return info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")
            }
        }
    }
}
