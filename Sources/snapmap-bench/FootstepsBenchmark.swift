import Foundation
import GeoCore
import LiveMap
import SQLiteKit

/// Footsteps storage: people who keep Footsteps through a month of daily use (three hours out a day, a fix a
/// minute, walking about 60 m a minute with stops), the bytes their Footsteps add to the SQLite file per person,
/// against the same fixes kept unthinned as one row each (person, lat, lon, time) in a table of their own, in the
/// same run.
enum FootstepsBenchmark {
    static let people = 10
    static let days = 30
    static let fixesPerDay = 180

    static func run() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-bench-footsteps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let walks = try (0..<people).map { try walk(seed: UInt64($0 + 1)) }
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        var bytes: [Bool: Int] = [:]
        var places = 0
        for keeping in [false, true] {
            let path = directory.appendingPathComponent(keeping ? "on.db" : "off.db").path
            // The store is closed before the file is measured: while it is open, its connections keep the log from
            // being checkpointed, and the measure would be the log's frames.
            do {
                let store = try SQLiteLiveStore(path: path, synchronous: false)
                for (index, walk) in walks.enumerated() {
                    let id = try PersonID("p\(index)")
                    _ = try store.addPerson(Person(id: id, name: "Person \(index)", color: "#0EADFF"), settings: .newPerson)
                    try store.setFootsteps(on: keeping, of: id)
                    for (coordinate, seconds) in walk {
                        _ = try store.recordFix(LocationFix(coordinate: coordinate, accuracyMeters: 10, takenAt: start.addingTimeInterval(seconds)), of: id)
                    }
                    if keeping { places += try store.footsteps(of: id).count }
                }
            }
            bytes[keeping] = try fileBytes(path)
        }
        let rawPath = directory.appendingPathComponent("raw.db").path
        let raw = try SQLiteDatabase(path: rawPath)
        try raw.execute("CREATE TABLE fixes (person INTEGER NOT NULL, ms INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, PRIMARY KEY (person, ms)) WITHOUT ROWID")
        let emptyRaw = try fileBytes(rawPath)
        try raw.transaction {
            for (index, walk) in walks.enumerated() {
                try raw.run("INSERT INTO fixes VALUES (?, ?, ?, ?)", rows: walk.map { [.integer(index), .integer(Int($0.1 * 1000)), .real($0.0.lat), .real($0.0.lon)] })
            }
        }
        let rawBytes = try fileBytes(rawPath) - emptyRaw
        let footsteps = Double((bytes[true] ?? 0) - (bytes[false] ?? 0)) / Double(people)
        let unthinned = Double(rawBytes) / Double(people)
        return "footsteps storage, a month of daily use (\(days * fixesPerDay) fixes a person): \(Int(footsteps / 1024)) KiB a person "
            + "(\(places / people) places), the unthinned fixes \(Int(unthinned / 1024)) KiB, \(BenchmarkClock.format(footsteps / unthinned))× their size"
    }

    /// A month of one person's fixes: each day from home, a fix a minute for three hours, a stop (no move) a third of
    /// the time, else about 60 m in a direction that turns slowly.
    static func walk(seed: UInt64) throws -> [(Coordinate, Double)] {
        var random = SplitMix64(seed: seed)
        let home = (lat: 40.705 + random.unit() * 0.02, lon: -73.97 + random.unit() * 0.03)
        var fixes: [(Coordinate, Double)] = []
        for day in 0..<days {
            var (lat, lon, heading) = (home.lat, home.lon, random.unit() * 2 * .pi)
            for minute in 0..<fixesPerDay {
                if random.unit() > 1.0 / 3 {
                    heading += (random.unit() - 0.5) * 0.8
                    let metres = 40 + random.unit() * 40
                    lat += metres * cos(heading) / 111_320
                    lon += metres * sin(heading) / (111_320 * cos(lat * .pi / 180))
                }
                fixes.append((try Coordinate(lat: lat, lon: lon), Double(day * 86_400 + 9 * 3600 + minute * 60)))
            }
        }
        return fixes
    }

    /// The database file and its write-ahead log, checkpointed. A closed store's checkpointer thread may still be
    /// copying its log back (up to a gigabyte or more here: fixes pour in faster than it checkpoints), and SQLite
    /// answers busy at once while another checkpoint runs: it is asked again, a tenth of a second apart, for up to
    /// two minutes; a log still not emptied is an error, not a figure.
    static func fileBytes(_ path: String) throws -> Int {
        let database = try SQLiteDatabase(path: path)
        var result: [SQLiteDatabase.Value] = []
        for _ in 0..<1200 {
            result = try database.query("PRAGMA wal_checkpoint(TRUNCATE)").first ?? []
            if result.first == .integer(0) { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        guard result.first == .integer(0) else {
            throw LiveMapError.unavailable(message: "\(path): the write-ahead log could not be emptied to measure the file (\(result))")
        }
        let size = { (file: String) in (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 }
        return size(path) + size(path + "-wal")
    }
}
