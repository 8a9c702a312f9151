import Foundation
import SQLiteKit

/// Whole-file operations: a checkpoint to copy the file, and whole worlds loaded at once (no change is announced).
extension SQLiteLiveStore {
    /// Folds the write-ahead log into the database file, so that the file alone holds everything (to copy it).
    public static func checkpoint(path: String) throws {
        try SQLiteDatabase(path: path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// A whole world at once, in one transaction (large demo and benchmark stores): people with their settings,
    /// then asks, fixes and token hashes between people already loaded. Existing rows with the same keys are replaced.
    public func bulkLoad(people: [(Person, SharingSettings)] = [], asks: [(from: PersonID, to: PersonID, details: FriendDetails)] = [],
                         fixes: [(PersonID, LocationFix)] = [], tokenHashes: [(String, PersonID)] = []) throws {
        let peopleRows: [[SQLiteDatabase.Value]] = people.map { person, settings in
            [.text(person.id.rawValue), .text(person.name), .text(person.color), person.avatar.map { .text($0) } ?? .null] + SQLiteSchema.values(settings)
        }
        let askRows: [[SQLiteDatabase.Value]] = asks.map {
            [.text($0.from.rawValue), .text($0.to.rawValue), .integer($0.details.snapstreak), .integer($0.details.bestFriend ? 1 : 0)]
        }
        let fixRows: [[SQLiteDatabase.Value]] = fixes.map { id, fix in SQLiteSchema.values(fix) + [.text(id.rawValue)] }
        let tokenRows: [[SQLiteDatabase.Value]] = tokenHashes.map { [.text($0.0), .text($0.1.rawValue)] }
        try write { database in
            try database.run(SQLiteSchema.insertPerson(orReplace: true), rows: peopleRows)
            for row in askRows { try SQLiteSchema.addAsk(database, row) }
            try database.run(SQLiteSchema.setFix, rows: fixRows)
            try database.run("INSERT OR REPLACE INTO tokens VALUES (?1, \(SQLiteSchema.row(2)))", rows: tokenRows)
        }
    }
}
