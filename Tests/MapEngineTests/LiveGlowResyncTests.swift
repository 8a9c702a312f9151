import Foundation
import GeoCore
import HeatMap
import LiveMap
import MapScene
import SQLiteKit
import Testing

/// A replica whose bus lost messages (it stood still past the change log's retention) makes its glow match the
/// store again: what it never heard of still changes the glow from the next epoch.
@Suite("The live glow after a resync")
struct LiveGlowResyncTests {
    static let settings = SnapAggregate.Settings(halfLifeHours: 6, minimumPosters: 5, maxWeightPerPoster: 2, epochSeconds: 300)

    /// `people` posting one Snap each at `lat, lon`, taken at `at`.
    static func snaps(_ people: [String], lat: Double, lon: Double, at: Date) throws -> [PublicSnap] {
        try people.map { try PublicSnap(person: PersonID($0), coordinate: Coordinate(lat: lat, lon: lon), takenAt: at) }
    }

    @Test func aDeletionAndSnapsThisReplicaNeverHeardOfReachItsGlowAtTheNextEpoch() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("glow-resync-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteLiveStore(path: path, synchronous: false)
        let now = Date(timeIntervalSince1970: 1_796_000_100)
        let crowd = (0..<5).map { "crowd\($0)" }
        try store.addSnaps(try Self.snaps(crowd, lat: 40.7180, lon: -73.9570, at: now.addingTimeInterval(-600)))
        let live = LiveMapService(store: store)
        live.attach(store.makeChangeFeed())
        let glow = SnapAggregate(settings: Self.settings)
        try LiveGlow.connect(glow, live: live, clock: { now })
        let before = glow.snapshot(at: now)
        #expect(!before.points.isEmpty, "five people's Snaps show")
        // Another server deletes one of the five and five new people post elsewhere; the log's rows are pruned before
        // this replica reads them, so its bus can only say that it missed something.
        let elsewhere = try Self.snaps((0..<5).map { "late\($0)" }, lat: 40.7080, lon: -73.9570, at: now.addingTimeInterval(-60))
        let other = try SQLiteDatabase(path: path)
        try other.execute("BEGIN IMMEDIATE; DELETE FROM snaps WHERE poster = 'crowd0'")
        for snap in elsewhere {
            try other.execute("INSERT INTO snaps (poster, lat, lon, taken_ms) VALUES ('\(snap.person.rawValue)', \(snap.coordinate.lat), \(snap.coordinate.lon), \(Int(snap.takenAt.timeIntervalSince1970 * 1000)))")
        }
        try other.execute("INSERT INTO changes (origin, message, at_ms) VALUES ('elsewhere', 'r|crowd0', 0); DELETE FROM changes; COMMIT")
        let reference = SnapAggregate(settings: Self.settings)
        for snap in try store.snaps(since: now.addingTimeInterval(-LiveMapService.snapWindow)) { reference.add(LiveGlow.posted(snap)) }
        let next = now.addingTimeInterval(Double(Self.settings.epochSeconds))
        let expected = reference.snapshot(at: next)
        let until = Date().addingTimeInterval(5)
        while glow.snapshot(at: next).digest != expected.digest && Date() < until { Thread.sleep(forTimeInterval: SQLiteChangeFeed.pollInterval) }
        #expect(glow.snapshot(at: next).digest == expected.digest, "within 5 s the next epoch draws what the store holds")
        #expect(!expected.points.isEmpty && Set(expected.points.map(\.mercator)).isDisjoint(with: before.points.map(\.mercator)),
                "the four left are not drawn; the five new are")
        #expect(glow.snapshot(at: now).digest == before.digest, "the epoch it came in draws as it did")
    }
}
