import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import SQLiteKit

/// What a tinted frame reads of its viewer's Footsteps on SQLite: a person with `places` kept places over New York
/// City (about a year of heavy use, written straight into the file), and the scene's frame of Williamsburg. The places
/// inside the frame's bounds, through the cell index, against the whole history read and filtered to the same bounds
/// (what frames read before the index), in the same run.
enum FootstepsFrameBenchmark {
    static let places = 100_000

    static func run() throws -> String {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: "Data")))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-bench-footsteps-frame-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("live.db").path
        let id = try PersonID("walker")
        do {
            let store = try SQLiteLiveStore(path: path, synchronous: false)
            _ = try store.addPerson(Person(id: id, name: "Walker", color: "#0EADFF"), settings: .newPerson)
            try store.setFootsteps(on: true, of: id)
        }
        let database = try SQLiteDatabase(path: path)
        var random = SplitMix64(seed: 29)
        let start = 1_796_000_000_000
        try database.transaction {
            try database.run("INSERT INTO footsteps SELECT row, ?1, ?1, ?2, ?3 FROM people WHERE id = 'walker'", rows: (0..<places).map { index in
                [.integer(start + index * 300_000), .real(40.57 + random.unit() * 0.33), .real(-74.05 + random.unit() * 0.35)]
            })
        }
        let store = try SQLiteLiveStore(path: path, synchronous: false)
        let box = try engine.footstepsBounds(engine.scene.viewport, layers: [.base, .footsteps]).orThrow()
        let inside = { (coordinate: Coordinate) in (box.south...box.north).contains(coordinate.lat) && (box.west...box.east).contains(coordinate.lon) }
        let (indexed, whole) = (try store.footsteps(of: id, in: box), try store.footsteps(of: id).map(\.coordinate).filter(inside))
        guard Set(indexed) == Set(whole), indexed.count == whole.count, !whole.isEmpty else {
            throw LiveMapError.unavailable(message: "the index found \(indexed.count) places, the whole history \(whole.count)")
        }
        let read = try BenchmarkClock.best(of: 5) { _ = try store.footsteps(of: id).map(\.coordinate).filter(inside) }
        let found = try BenchmarkClock.best(of: 5) { _ = try store.footsteps(of: id, in: box) }
        return "footsteps frame: the \(whole.count) of \(places) places a Williamsburg frame tints, through the cell index "
            + "\(BenchmarkClock.format(found * 1000)) ms, reading all and filtering \(BenchmarkClock.format(read * 1000)) ms (same run): "
            + "\(BenchmarkClock.format(read / found))× faster"
    }
}

private extension Optional {
    func orThrow() throws -> Wrapped {
        guard let value = self else { throw LiveMapError.unavailable(message: "the scene's frame tints nothing") }
        return value
    }
}
