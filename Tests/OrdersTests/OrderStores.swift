import Foundation
import LiveMap
import Orders
import RedisStore
import SQLiteKit
import ServerTestSupport

/// The stores every order test runs on: a new SQLite file, or the Redis Cluster these tests share (started on first
/// use, stopped when the test process ends; never flushed, so tests run side by side: each world's ids carry a tag
/// of its own).
enum OrderStoreKind: String, CaseIterable, Sendable {
    case sqlite, redis

    /// The cluster of the Redis runs (its own: the live store's Redis suite flushes the one it shares).
    static let cluster = Result { () throws -> LocalRedisCluster in
        let cluster = try LocalRedisCluster(launch: TestProcess.launch)
        try cluster.waitForGoodReplicas()
        return cluster
    }
}

/// A store of one kind with some people in it, its order book and service, and every byte it keeps.
struct OrderWorld {
    let book: OrderBook
    let live: LiveMapService
    let store: any OrderStore
    /// Ends each id of this world (people and orders), so worlds on one cluster never meet.
    let tag: String
    /// Every byte the store keeps: the SQLite file and its log, or each master's keys and values.
    let bytes: () throws -> Data

    /// A new world on `kind` with the people `names` (ids `name + tag`).
    init(_ kind: OrderStoreKind, _ names: [String]) throws {
        tag = "-" + UUID().uuidString.prefix(6).lowercased()
        switch kind {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-orders-\(UUID().uuidString)/live.db").path
            let sqlite = try SQLiteLiveStore(path: path)
            (store, live) = (sqlite, LiveMapService(store: sqlite))
            bytes = {
                // The removal notice names the id until the change log is pruned (as `AccountAndBlockTests` does).
                try sqlite.pruneChanges(before: Date().addingTimeInterval(60))
                try SQLiteDatabase(path: path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
                var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                if let wal = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")) { bytes += wal }
                return bytes
            }
        case .redis:
            let cluster = try OrderStoreKind.cluster.get()
            let redis = try RedisLiveStore(url: cluster.url)
            (store, live) = (redis, LiveMapService(store: redis))
            bytes = { try Self.everyKeyAndValue(cluster) }
        }
        book = OrderBook(store: store)
        for name in names { _ = try live.addPerson(id: id(name), name: name.capitalized) }
    }

    /// `name` as this world's id.
    func id(_ name: String) -> String { name + tag }

    /// Every key on the cluster's masters and every value in it, as text.
    static func everyKeyAndValue(_ cluster: LocalRedisCluster) throws -> Data {
        var text = ""
        for port in try cluster.masters() {
            let connection = try RedisConnection(host: "127.0.0.1", port: port)
            for key in try connection.command(["KEYS", "*"]).elements.compactMap(\.text) {
                let read: [String]
                switch try connection.command(["TYPE", key]).text {
                case "hash": read = ["HGETALL", key]
                case "set": read = ["SMEMBERS", key]
                case "zset": read = ["ZRANGE", key, "0", "-1"]
                case "list": read = ["LRANGE", key, "0", "-1"]
                default: read = ["GET", key]
                }
                let reply = try connection.command(read)
                text += ([key, reply.text ?? ""] + reply.elements.compactMap(\.text)).joined(separator: "\n") + "\n"
            }
        }
        return Data(text.utf8)
    }
}
