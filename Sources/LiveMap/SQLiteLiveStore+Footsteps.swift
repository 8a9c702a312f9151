import Foundation
import GeoCore
import SQLiteKit

/// Footsteps on SQLite: who keeps them, and their places by person and first visit, indexed by person and cell. A kept
/// fix goes into them inside its own write. The schema steps are self-contained, to be renumbered freely at a merge.
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

    /// The index of places by cell, for a frame's part of the map: 0.01° of latitude by 0.01° of longitude, numbered
    /// row by row from (−90°, −180°). A schema step of its own (an index on an expression: no column, nothing to fill).
    static let footstepsCellSchema = "CREATE INDEX footsteps_cell ON footsteps(person_row, \(footstepsCell), lat, lon);"
    static let footstepsCell = "CAST((lat + 90) * 100 AS INTEGER) * 36001 + CAST((lon + 180) * 100 AS INTEGER)"
    /// Rows of cells read one range each; a box of more rows is read as one range of cells (filtered all the same).
    static let footstepsCellRows = 64

    public func footsteps(of id: PersonID, in box: GeoBoundingBox) throws -> [Coordinate] {
        // One cell more on every side: the cells found here need not agree with SQLite's to the last bit.
        let cell = { (degrees: Double) in Int((degrees * 100).rounded(.down)) }
        let (rows, columns) = ((cell(box.south + 90) - 1)...(cell(box.north + 90) + 1), (cell(box.west + 180) - 1)...(cell(box.east + 180) + 1))
        let ranges = rows.count <= Self.footstepsCellRows
            ? rows.map { ($0 * 36001 + columns.lowerBound, $0 * 36001 + columns.upperBound) }
            : [(rows.lowerBound * 36001 + columns.lowerBound, rows.upperBound * 36001 + columns.upperBound)]
        return try read { database in
            guard let owner = try database.query("SELECT row FROM people WHERE id = ?", [.text(id.rawValue)]).first?.first?.integer else { return [] }
            var places: [Coordinate] = []
            for (low, high) in ranges {
                for row in try database.query("SELECT lat, lon FROM footsteps WHERE person_row = ?1 AND \(Self.footstepsCell) BETWEEN ?2 AND ?3",
                                              [.integer(owner), .integer(low), .integer(high)]) {
                    guard let lat = row[0].real, let lon = row[1].real, (box.south...box.north).contains(lat), (box.west...box.east).contains(lon),
                          let coordinate = try? Coordinate(lat: lat, lon: lon) else { continue }
                    places.append(coordinate)
                }
            }
            return places
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
