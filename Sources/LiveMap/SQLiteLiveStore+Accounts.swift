import Foundation
import SQLiteKit

/// The writes that end things (a token, a whole person), the one-read standing of another person, and the change
/// log every write adds to.
extension SQLiteLiveStore {
    /// Adds a bus message to the change log, inside the caller's transaction.
    func log(_ database: SQLiteDatabase, _ message: LiveBusMessage) throws {
        try database.change("INSERT INTO changes (origin, message, at_ms) VALUES (?, ?, ?)",
                            [.text(origin), .text(message.text), .integer(SQLiteSchema.milliseconds(Date()))])
    }

    /// Keeps a fix row when newer, logging the move.
    func recordFix(_ fix: LocationFix, of id: PersonID, _ database: SQLiteDatabase) throws -> Bool {
        let row = SQLiteSchema.values(fix) + [.text(id.rawValue)]
        let kept = try database.change(SQLiteSchema.updateFix, row) == 1
        if kept {
            try log(database, .fix(id, fix.asStored))
            try keepFootstep(row, of: id, database)
        }
        return kept
    }

    public func standing(of other: PersonID, for me: PersonID) throws -> Standing? {
        try read { database in
            try database.query("""
                SELECT EXISTS (SELECT 1 FROM asks WHERE from_row = m.row AND to_row = o.row),
                    EXISTS (SELECT 1 FROM asks WHERE from_row = o.row AND to_row = m.row),
                    EXISTS (SELECT 1 FROM blocks WHERE blocker_row = m.row AND blocked_row = o.row)
                FROM people m JOIN people o ON o.id = ?2
                WHERE m.id = ?1 AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_row = o.row AND blocked_row = m.row)
                """, [.text(me.rawValue), .text(other.rawValue)])
                .first.map { Standing(meAsk: $0[0].integer == 1, theyAsk: $0[1].integer == 1, meBlocks: $0[2].integer == 1) }
        }
    }

    public func viewers(of person: PersonID) throws -> [Candidate] {
        try read { database in
            try database.query(SQLiteSchema.viewersQuery, [.text(person.rawValue)]).map { row in
                SQLiteSchema.candidate(row, viewer: PersonID(trusted: row[24].text ?? ""))
            }
        }
    }

    public func removeToken(hash: String) throws -> PersonID? {
        try write { database in
            guard let owner = try database.query("SELECT p.id FROM tokens t JOIN people p ON p.row = t.person_row WHERE t.hash = ?", [.text(hash)])
                .first?.first?.text.map(PersonID.init(trusted:)) else { return nil }
            try database.change("DELETE FROM tokens WHERE hash = ?", [.text(hash)])
            try self.log(database, .change(.sessions(owner)))
            return owner
        }
    }

    /// Deleted rows are overwritten (`secure_delete`), the person's id is taken out of the change log (but for the
    /// removal notice, pruned with the log), and the write-ahead log is truncated afterwards, so the file keeps no
    /// byte of theirs. Other people's audience lists keep the id as their owners wrote it, as they keep ids that
    /// never existed: taking it out would tell them the account was deleted rather than blocking them.
    public func removePerson(_ id: PersonID) throws -> Bool {
        let removed: Bool = try write { database in
            guard let row = try database.query("SELECT row FROM people WHERE id = ?", [.text(id.rawValue)]).first?.first?.integer else { return false }
            let person: [SQLiteDatabase.Value] = [.integer(row)], name: [SQLiteDatabase.Value] = [.text(id.rawValue)]
            try database.change("DELETE FROM orders WHERE customer_row = ?1 OR dasher_row = ?1", person)
            try database.change("DELETE FROM asks WHERE from_row = ?1 OR to_row = ?1", person)
            try database.change("DELETE FROM blocks WHERE blocker_row = ?1 OR blocked_row = ?1", person)
            try database.change("DELETE FROM live_shares WHERE from_row = ?1 OR to_row = ?1", person)
            try database.change("DELETE FROM footsteps WHERE person_row = ?1", person)
            try database.change("DELETE FROM footsteps_on WHERE person_row = ?1", person)
            try database.change("DELETE FROM tokens WHERE person_row = ?1", person)
            try database.change("DELETE FROM snaps WHERE poster = ?1", name)
            try database.change("DELETE FROM changes WHERE instr('|' || message || '|', '|' || ?1 || '|') > 0", name)
            try database.change("DELETE FROM people WHERE row = ?1", person)
            try self.log(database, .change(.removed(id)))
            return true
        }
        if removed { try SQLiteDatabase(path: path).execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        return removed
    }

    /// A removal here is one transaction: none is ever left part way.
    public func finishInterruptedRemovals() throws -> [PersonID] { [] }

    /// Drops change-log rows written before `before` (the log is for listeners that are at most moments behind).
    public func pruneChanges(before: Date) throws {
        try write { database in try Self.pruneChanges(database, before: before) }
    }

    /// Queues the same removal and returns at once; `done` runs on the writing thread once it committed or failed.
    func pruneChanges(before: Date, done: @escaping @Sendable () -> Void) {
        writer.submit({ database in try Self.pruneChanges(database, before: before) }, completion: { _ in done() })
    }

    private static func pruneChanges(_ database: SQLiteDatabase, before: Date) throws {
        try database.change("DELETE FROM changes WHERE at_ms < ?", [.integer(SQLiteSchema.milliseconds(before))])
    }

    /// The change log's other writers, heard by polling the log (SQLite has no notifications).
    public func makeChangeFeed() -> SQLiteChangeFeed { SQLiteChangeFeed(store: self) }
}
