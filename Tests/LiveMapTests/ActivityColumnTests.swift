import Foundation
import SQLiteKit
import Testing
@testable import LiveMap

/// Version 9 of the SQLite store keeps a fix's activity as a small integer, not its name; a version 8 file's names
/// are converted when it is opened.
@Suite("The SQLite store's activity column")
struct ActivityColumnTests {
    @Test func aVersionEightFilesActivitiesAreKeptAsIntegersAndReadBackTheSame() throws {
        let path = SQLiteStoreTests.temporaryPath()
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        let names = Activity.allCases.map(\.rawValue) + ["swimming", nil]
        do {
            let old = try SQLiteDatabase(path: path)
            for (index, migration) in SQLiteLiveStore.migrations.prefix(8).enumerated() {
                try old.execute(migration + "PRAGMA user_version = \(index + 1);")
            }
            for (index, name) in names.enumerated() {
                try old.change("""
                    INSERT INTO people (id, name, color, ghost, ghost_hours, ghost_until_ms, audience, audience_ids, lat, lon, accuracy, taken_ms, activity, speed)
                    VALUES (?1, 'P', '#000000', 'off', 0, 0, 'friends', '', 40.7, -73.9, 8, 1796000000000, ?2, 3.5)
                    """, [.text("p\(index)"), name.map { .text($0) } ?? .null])
            }
        }
        let store = try SQLiteLiveStore(path: path)
        for (index, name) in names.enumerated() {
            let fix = try #require(try store.fix(of: PersonID("p\(index)")), "p\(index)'s fix is kept")
            #expect(fix.activity == name.flatMap(Activity.init(rawValue:)), "\(name ?? "none")")
            #expect(fix.speedMetersPerSecond == 3.5)
        }
        let types = try SQLiteDatabase(path: path).query("SELECT DISTINCT typeof(activity) FROM people ORDER BY 1").map { $0[0].text ?? "" }
        #expect(types == ["integer", "null"], "an activity is stored as its integer")
        for activity in Activity.allCases { #expect(SQLiteSchema.activity(code: SQLiteSchema.activityCode(activity)) == activity) }
    }
}
