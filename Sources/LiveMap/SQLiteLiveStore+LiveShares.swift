import Foundation
import SQLiteKit

/// Live Location shares on SQLite: a row per sharer and friend, written with the change log's pair message so every
/// process hears it. The schema step is self-contained (one table, its index), to be renumbered freely at a merge.
extension SQLiteLiveStore {
    static let liveSharesSchema = """
        CREATE TABLE live_shares (from_row INTEGER NOT NULL REFERENCES people(row), to_row INTEGER NOT NULL REFERENCES people(row),
            started_ms INTEGER NOT NULL, until_ms INTEGER NOT NULL, paused INTEGER NOT NULL,
            PRIMARY KEY (from_row, to_row)) WITHOUT ROWID;
        CREATE INDEX live_shares_by_friend ON live_shares (to_row, from_row);
        """

    public func setLiveShare(_ share: LiveShare) throws {
        let values: [SQLiteDatabase.Value] = [.text(share.from.rawValue), .text(share.to.rawValue), .integer(SQLiteSchema.milliseconds(share.startedAt)),
                                              .integer(SQLiteSchema.milliseconds(share.until)), .integer(share.paused ? 1 : 0)]
        try write { database in
            // A start or pause that read the friendship before a block or an unfriending landed keeps nothing.
            guard try SQLiteSchema.friends(database, share.from, share.to) else { return }
            try database.change("INSERT OR REPLACE INTO live_shares VALUES (\(SQLiteSchema.row(1)), \(SQLiteSchema.row(2)), ?3, ?4, ?5)", values)
            try self.log(database, .change(.pair(share.from, share.to)))
        }
    }

    public func removeLiveShare(from: PersonID, to: PersonID) throws -> Bool {
        try write { database in
            let removed = try database.change("DELETE FROM live_shares WHERE from_row = \(SQLiteSchema.row(1)) AND to_row = \(SQLiteSchema.row(2))",
                                              [.text(from.rawValue), .text(to.rawValue)]) == 1
            if removed { try self.log(database, .change(.pair(from, to))) }
            return removed
        }
    }

    public func liveShares(of id: PersonID) throws -> [LiveShare] {
        try read { database in
            try database.query("""
                SELECT f.id, t.id, l.started_ms || ',' || l.until_ms || ',' || l.paused FROM live_shares l
                    JOIN people f ON f.row = l.from_row JOIN people t ON t.row = l.to_row
                WHERE l.from_row = \(SQLiteSchema.row(1)) OR l.to_row = \(SQLiteSchema.row(1)) ORDER BY f.id, t.id
                """, [.text(id.rawValue)]).compactMap { row in
                    guard let from = row[0].text, let to = row[1].text else { return nil }
                    return SQLiteSchema.liveShare(row[2].text, from: PersonID(trusted: from), to: PersonID(trusted: to))
                }
        }
    }

    /// Every share, for a view loading the whole store.
    public func readBirthdays(_ birthday: (PersonID, Birthday) throws -> Void) throws {
        let rows = try read { try $0.query("SELECT id, birth_month, birth_day FROM people WHERE birth_month IS NOT NULL") }
        for row in rows {
            guard let id = row[0].text, let found = SQLiteSchema.birthday(row, from: 1) else { continue }
            try birthday(PersonID(trusted: id), found)
        }
    }

    public func readLiveShares(_ share: (LiveShare) throws -> Void) throws {
        let rows = try read { database in
            try database.query("""
                SELECT f.id, t.id, l.started_ms || ',' || l.until_ms || ',' || l.paused FROM live_shares l
                    JOIN people f ON f.row = l.from_row JOIN people t ON t.row = l.to_row
                """)
        }
        for row in rows {
            guard let from = row[0].text, let to = row[1].text,
                  let found = SQLiteSchema.liveShare(row[2].text, from: PersonID(trusted: from), to: PersonID(trusted: to)) else { continue }
            try share(found)
        }
    }
}
