import Foundation
import GeoCore
import SQLiteKit

/// Footsteps on SQLite: who keeps them, and their places by person and first visit. A kept fix goes into them inside
/// its own write. The schema step is self-contained (two tables), to be renumbered freely at a merge.
extension SQLiteLiveStore {
    static let footstepsSchema = """
        CREATE TABLE footsteps_on (person_row INTEGER PRIMARY KEY REFERENCES people(row));
        CREATE TABLE footsteps (person_row INTEGER NOT NULL REFERENCES people(row), first_ms INTEGER NOT NULL, last_ms INTEGER NOT NULL,
            lat REAL NOT NULL, lon REAL NOT NULL, PRIMARY KEY (person_row, first_ms)) WITHOUT ROWID;
        """

    public func footstepsOn(_ id: PersonID) throws -> Bool {
        try read { database in
            try !database.query("SELECT 1 FROM footsteps_on WHERE person_row = \(SQLiteSchema.row(1))", [.text(id.rawValue)]).isEmpty
        }
    }

    public func setFootsteps(on: Bool, of id: PersonID) throws {
        try write { database in
            let sql = on ? "INSERT OR IGNORE INTO footsteps_on SELECT row FROM people WHERE id = ?1" : "DELETE FROM footsteps_on WHERE person_row = \(SQLiteSchema.row(1))"
            try database.change(sql, [.text(id.rawValue)])
        }
    }

    public func footsteps(of id: PersonID) throws -> [Footstep] {
        try read { database in
            try database.query("SELECT first_ms, last_ms, lat, lon FROM footsteps WHERE person_row = \(SQLiteSchema.row(1)) ORDER BY first_ms",
                               [.text(id.rawValue)]).compactMap(Self.footstep)
        }
    }

    public func clearFootsteps(of id: PersonID) throws -> Int {
        try write { database in try database.change("DELETE FROM footsteps WHERE person_row = \(SQLiteSchema.row(1))", [.text(id.rawValue)]) }
    }

    static func footstep(_ row: [SQLiteDatabase.Value]) -> Footstep? {
        guard let first = row[0].integer, let last = row[1].integer, let lat = row[2].real, let lon = row[3].real,
              let coordinate = try? Coordinate(lat: lat, lon: lon) else { return nil }
        return Footstep(coordinate: coordinate, firstVisit: SQLiteSchema.date(first), lastVisit: SQLiteSchema.date(last))
    }

    /// Inside a fix's write (its row: lat, lon, accuracy, taken_ms, place): the fix goes into the person's Footsteps
    /// when they keep them, and places past the year or the count bound go.
    func keepFootstep(_ row: [SQLiteDatabase.Value], of id: PersonID, _ database: SQLiteDatabase) throws {
        guard let owner = try database.query("SELECT person_row FROM footsteps_on WHERE person_row = \(SQLiteSchema.row(1))", [.text(id.rawValue)])
                .first?.first?.integer,
              let lat = row[0].real, let lon = row[1].real, let taken = row[3].integer, let coordinate = try? Coordinate(lat: lat, lon: lon) else { return }
        let person = SQLiteDatabase.Value.integer(owner)
        let last = try database.query("SELECT first_ms, last_ms, lat, lon FROM footsteps WHERE person_row = ? ORDER BY first_ms DESC LIMIT 1", [person])
            .first.flatMap(Self.footstep)
        let (place, extendsLast) = Footsteps.next(after: last, coordinate: coordinate, at: SQLiteSchema.date(taken))
        if extendsLast {
            try database.change("UPDATE footsteps SET last_ms = ?3 WHERE person_row = ?1 AND first_ms = ?2",
                                [person, .integer(SQLiteSchema.milliseconds(place.firstVisit)), .integer(taken)])
            return
        }
        try database.change("INSERT OR REPLACE INTO footsteps VALUES (?1, ?2, ?2, ?3, ?4)", [person, .integer(taken), .real(lat), .real(lon)])
        let cutoff = taken - Int(Footsteps.keptFor * 1000)
        try database.change("DELETE FROM footsteps WHERE person_row = ?1 AND first_ms < ?2 AND last_ms < ?2", [person, .integer(cutoff)])
        try database.change("""
            DELETE FROM footsteps WHERE person_row = ?1
                AND first_ms <= (SELECT first_ms FROM footsteps WHERE person_row = ?1 ORDER BY first_ms DESC LIMIT 1 OFFSET ?2)
            """, [person, .integer(Footsteps.maxPlaces)])
    }
}
