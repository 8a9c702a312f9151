import Foundation
import GeoCore
import SQLiteKit

/// The live store's tables, its queries and the mapping between rows and the model.
enum SQLiteSchema {
    /// People carry their settings and latest fix in one row (one lookup per friend); asks, blocks and tokens
    /// refer to people by integer row, so the friend graph is compact and fast to walk. An ask's `mutual` is set
    /// on both rows when both exist (maintained by every write of asks), so a viewer's friends are one range scan.
    static let version1 = """
        CREATE TABLE people (row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, color TEXT NOT NULL, avatar TEXT,
            ghost TEXT NOT NULL, ghost_hours INTEGER NOT NULL, ghost_until_ms INTEGER NOT NULL,
            audience TEXT NOT NULL, audience_ids TEXT NOT NULL,
            lat REAL, lon REAL, accuracy REAL, taken_ms INTEGER, place TEXT);
        CREATE TABLE asks (from_row INTEGER NOT NULL REFERENCES people(row), to_row INTEGER NOT NULL REFERENCES people(row),
            snapstreak INTEGER NOT NULL, best INTEGER NOT NULL, mutual INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (from_row, to_row)) WITHOUT ROWID;
        CREATE INDEX asks_by_target ON asks (to_row, from_row);
        CREATE TABLE blocks (blocker_row INTEGER NOT NULL REFERENCES people(row), blocked_row INTEGER NOT NULL REFERENCES people(row),
            PRIMARY KEY (blocker_row, blocked_row)) WITHOUT ROWID;
        CREATE TABLE tokens (hash TEXT PRIMARY KEY, person_row INTEGER NOT NULL REFERENCES people(row)) WITHOUT ROWID;
        CREATE INDEX tokens_by_person ON tokens (person_row);
        """

    /// Public Snaps for the glow: who posted (to count distinct people), where, when. Dropped after the window.
    static let version2 = """
        CREATE TABLE snaps (id INTEGER PRIMARY KEY, poster TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, taken_ms INTEGER NOT NULL);
        CREATE INDEX snaps_by_time ON snaps (taken_ms);
        """

    /// The change log: every write that can alter what someone sees adds its bus message here in the same
    /// transaction, so other processes on the file (the CLI, a second server) are heard at once. Kept briefly.
    static let version3 = """
        CREATE TABLE changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, origin TEXT NOT NULL, message TEXT NOT NULL, at_ms INTEGER NOT NULL);
        CREATE INDEX changes_by_time ON changes (at_ms);
        CREATE INDEX snaps_by_poster ON snaps (poster);
        """

    /// Actionmoji: what the motion sensors said with the latest fix, its speed, and the birthday a person set.
    static let version7 = """
        ALTER TABLE people ADD COLUMN activity TEXT;
        ALTER TABLE people ADD COLUMN speed REAL;
        ALTER TABLE people ADD COLUMN birth_month INTEGER;
        ALTER TABLE people ADD COLUMN birth_day INTEGER;
        """

    /// The activity as a small integer (`activityCode`) in place of its name: a read of many friends then makes no
    /// string per friend. Names written by version 7 are converted; an unknown one becomes NULL.
    static let version9 = """
        ALTER TABLE people ADD COLUMN activity_code INTEGER;
        UPDATE people SET activity_code = CASE activity \(Activity.allCases.map { "WHEN '\($0.rawValue)' THEN \(activityCode($0))" }.joined(separator: " ")) END;
        ALTER TABLE people DROP COLUMN activity;
        ALTER TABLE people RENAME COLUMN activity_code TO activity;
        """

    /// The integer the `activity` column holds for an activity; files keep these, so they are never renumbered.
    static func activityCode(_ activity: Activity) -> Int {
        switch activity {
        case .still: 1
        case .walking: 2
        case .running: 3
        case .cycling: 4
        case .automotive: 5
        case .flying: 6
        }
    }

    /// The activity an `activity` column's integer names (nil for NULL or an integer no activity has).
    static func activity(code: Int?) -> Activity? {
        switch code {
        case 1: .still
        case 2: .walking
        case 3: .running
        case 4: .cycling
        case 5: .automotive
        case 6: .flying
        default: nil
        }
    }

    /// A fix's seven columns of `people p`, as `fix(_:from:)` reads them.
    static let fixColumns = "p.lat, p.lon, p.accuracy, p.taken_ms, p.place, p.activity, p.speed"

    static func values(_ snap: PublicSnap) -> [SQLiteDatabase.Value] {
        [.text(snap.person.rawValue), .real(snap.coordinate.lat), .real(snap.coordinate.lon), .integer(milliseconds(snap.takenAt))]
    }

    static let insertSnap = "INSERT INTO snaps (poster, lat, lon, taken_ms) VALUES (?, ?, ?, ?)"
    /// `insertSnap` only while the poster is a person (in the write's own transaction, so after a removal it is not).
    static let insertPersonsSnap = "INSERT INTO snaps (poster, lat, lon, taken_ms) SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM people WHERE id = ?1)"

    static func snap(_ row: [SQLiteDatabase.Value]) -> PublicSnap? {
        guard let poster = row[0].text, let lat = row[1].real, let lon = row[2].real, let taken = row[3].integer,
              let coordinate = try? Coordinate(lat: lat, lon: lon) else { return nil }
        return try? PublicSnap(person: PersonID(trusted: poster), coordinate: coordinate, takenAt: date(taken))
    }

    /// The row of a person id, as a subquery on parameter `n`.
    static func row(_ n: Int) -> String { "(SELECT row FROM people WHERE id = ?\(n))" }

    static let personColumns = "p.id, p.name, p.color, p.avatar"
    private static let candidateColumns = """
        SELECT p.id, p.name, p.color, p.avatar, p.ghost, p.ghost_hours, p.ghost_until_ms, p.audience, p.audience_ids,
            \(fixColumns), mine.snapstreak, mine.best, mine.from_row IS NOT NULL,
            coalesce(mine.mutual, EXISTS (SELECT 1 FROM asks t WHERE t.from_row = p.row AND t.to_row = v.row)),
            EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_row = v.row AND b.blocked_row = p.row)
                OR EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_row = p.row AND b.blocked_row = v.row),
            (SELECT started_ms || ',' || until_ms || ',' || paused FROM live_shares l WHERE l.from_row = p.row AND l.to_row = v.row),
            p.birth_month, p.birth_day
        """
    static let candidatesQuery = candidateColumns + """

        FROM people v JOIN asks mine ON mine.from_row = v.row JOIN people p ON p.row = mine.to_row
        WHERE v.id = ?1
        """
    /// The person `?1` as everyone who asked them sees them, with each viewer's id last.
    static let viewersQuery = candidateColumns + """
        , v.id
        FROM people p JOIN asks mine ON mine.to_row = p.row JOIN people v ON v.row = mine.from_row
        WHERE p.id = ?1
        """
    static let candidateQuery = candidateColumns + """

        FROM people v JOIN people p ON p.id = ?2 LEFT JOIN asks mine ON mine.from_row = v.row AND mine.to_row = p.row
        WHERE v.id = ?1
        """
    static let relationsQuery = """
        SELECT p.id, p.name, p.color, p.avatar,
            EXISTS (SELECT 1 FROM asks a WHERE a.from_row = v.row AND a.to_row = p.row),
            EXISTS (SELECT 1 FROM asks a WHERE a.from_row = p.row AND a.to_row = v.row), p.birth_month, p.birth_day
        FROM people v JOIN people p ON p.row IN (SELECT to_row FROM asks WHERE from_row = v.row UNION SELECT from_row FROM asks WHERE to_row = v.row)
        WHERE v.id = ?1 ORDER BY p.id
        """

    /// Adds a person row (id, name, color, avatar, then the five sharing columns) with no fix.
    static func insertPerson(orReplace: Bool) -> String {
        "INSERT OR \(orReplace ? "REPLACE" : "IGNORE") INTO people (id, name, color, avatar, ghost, ghost_hours, ghost_until_ms, audience, audience_ids) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    }

    /// Sets a fix's columns (lat, lon, accuracy, taken_ms, place, activity, speed, then the id).
    static let setFix = "UPDATE people SET lat = ?1, lon = ?2, accuracy = ?3, taken_ms = ?4, place = ?5, activity = ?6, speed = ?7 WHERE id = ?8"
    /// Keeps a fix (as `setFix`) only when newer than the stored one.
    static let updateFix = setFix + " AND (taken_ms IS NULL OR taken_ms < ?4)"

    static func values(_ fix: LocationFix) -> [SQLiteDatabase.Value] {
        [.real(fix.coordinate.lat), .real(fix.coordinate.lon), .real(fix.accuracyMeters), .integer(milliseconds(fix.takenAt)),
         fix.place.map { .text($0) } ?? .null, fix.activity.map { .integer(activityCode($0)) } ?? .null, fix.speedMetersPerSecond.map { .real($0) } ?? .null]
    }

    /// Adds or updates the ask first → second, and marks both asks mutual when the other exists.
    static func addAsk(_ database: SQLiteDatabase, _ values: [SQLiteDatabase.Value]) throws {
        try database.change("""
            INSERT INTO asks VALUES (\(row(1)), \(row(2)), ?3, ?4,
                EXISTS (SELECT 1 FROM asks WHERE from_row = \(row(2)) AND to_row = \(row(1))))
            ON CONFLICT DO UPDATE SET snapstreak = excluded.snapstreak, best = excluded.best, mutual = excluded.mutual
            """, values)
        try database.change("UPDATE asks SET mutual = 1 WHERE from_row = \(row(2)) AND to_row = \(row(1)) AND mutual = 0", Array(values.prefix(2)))
    }

    /// Whether a block stands between `first` and `second`, either way, read inside a write: the service reads a pair's
    /// standing before it writes an ask or a share, and a block or an unfriending may land in between.
    static func blocked(_ database: SQLiteDatabase, _ first: PersonID, _ second: PersonID) throws -> Bool {
        try !database.query("""
            SELECT 1 FROM blocks WHERE (blocker_row = \(row(1)) AND blocked_row = \(row(2))) OR (blocker_row = \(row(2)) AND blocked_row = \(row(1)))
            """, [.text(first.rawValue), .text(second.rawValue)]).isEmpty
    }

    /// Whether both people still exist, read inside a write (as `blocked`): an account may go between the read and it.
    static func bothExist(_ database: SQLiteDatabase, _ first: PersonID, _ second: PersonID) throws -> Bool {
        try database.query("SELECT 1 FROM people WHERE id IN (?1, ?2)", [.text(first.rawValue), .text(second.rawValue)]).count == 2
    }

    /// Whether `first` and `second` ask each other and no block parts them, read inside a write (as `blocked`).
    static func friends(_ database: SQLiteDatabase, _ first: PersonID, _ second: PersonID) throws -> Bool {
        try database.query("""
            SELECT 1 FROM asks WHERE (from_row = \(row(1)) AND to_row = \(row(2))) OR (from_row = \(row(2)) AND to_row = \(row(1)))
            """, [.text(first.rawValue), .text(second.rawValue)]).count == 2 && !blocked(database, first, second)
    }

    /// Removes the asks both ways, and with them the pair's Live Location shares.
    static func deleteAsks(_ database: SQLiteDatabase, _ first: PersonID, _ second: PersonID) throws {
        try database.change("""
            DELETE FROM asks WHERE (from_row = \(row(1)) AND to_row = \(row(2))) OR (from_row = \(row(2)) AND to_row = \(row(1)))
            """, [.text(first.rawValue), .text(second.rawValue)])
        try database.change("""
            DELETE FROM live_shares WHERE (from_row = \(row(1)) AND to_row = \(row(2))) OR (from_row = \(row(2)) AND to_row = \(row(1)))
            """, [.text(first.rawValue), .text(second.rawValue)])
    }

    /// A birthday from its month and day columns (nil for none).
    static func birthday(_ row: [SQLiteDatabase.Value], from first: Int) -> Birthday? {
        guard let month = row[first].integer, let day = row[first + 1].integer else { return nil }
        return try? Birthday(month: month, day: day)
    }

    static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The five sharing columns of a settings value.
    static func values(_ settings: SharingSettings) -> [SQLiteDatabase.Value] {
        let ghost: [SQLiteDatabase.Value]
        switch settings.ghost {
        case .off: ghost = [.text("off"), .integer(0), .integer(0)]
        case .timed(let hours, let until): ghost = [.text("timed"), .integer(hours), .integer(milliseconds(until))]
        case .untilTurnedOff: ghost = [.text("untilOff"), .integer(0), .integer(0)]
        }
        return ghost + [.text(settings.audience.mode), .text(settings.audience.ids.map(\.rawValue).joined(separator: ","))]
    }

    static func settings(_ row: [SQLiteDatabase.Value], from first: Int) -> SharingSettings {
        let ghost: GhostMode
        switch row[first].text {
        case "timed": ghost = .timed(hours: row[first + 1].integer ?? 0, until: date(row[first + 2].integer ?? 0))
        case "off": ghost = .off
        default: ghost = .untilTurnedOff
        }
        let ids = Set((row[first + 4].text ?? "").split(separator: ",").map { PersonID(trusted: String($0)) })
        let audience: Audience
        switch row[first + 3].text {
        case "friendsExcept": audience = .friendsExcept(ids)
        case "only": audience = .only(ids)
        default: audience = .friends
        }
        return SharingSettings(ghost: ghost, audience: audience)
    }

    /// A person from `id, name, color, avatar` columns (written validated, so trusted).
    static func person(_ row: [SQLiteDatabase.Value]) -> Person {
        Person(trusted: PersonID(trusted: row[0].text ?? ""), name: row[1].text ?? "", color: row[2].text ?? "#000000", avatar: row[3].text)
    }

    static func fix(_ row: [SQLiteDatabase.Value], from first: Int) -> LocationFix? {
        guard let lat = row[first].real, let lon = row[first + 1].real, let accuracy = row[first + 2].real, let taken = row[first + 3].integer,
              let coordinate = try? Coordinate(lat: lat, lon: lon) else { return nil }
        return try? LocationFix(coordinate: coordinate, accuracyMeters: accuracy, takenAt: date(taken), place: row[first + 4].text,
                                activity: activity(code: row[first + 5].integer), speedMetersPerSecond: row[first + 6].real)
    }

    /// A share from its "started_ms,until_ms,paused" text (nil for none).
    static func liveShare(_ text: String?, from: PersonID, to: PersonID) -> LiveShare? {
        let parts = (text ?? "").split(separator: ",").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return LiveShare(from: from, to: to, startedAt: date(parts[0]), until: date(parts[1]), paused: parts[2] == 1)
    }

    static func candidate(_ row: [SQLiteDatabase.Value], viewer: PersonID) -> Candidate {
        let person = person(row)
        let facts = VisibilityFacts(viewer: viewer, person: person.id, viewerAsked: row[18].integer == 1, personAsked: row[19].integer == 1,
                                    blocked: row[20].integer == 1, settings: settings(row, from: 4), fix: fix(row, from: 9),
                                    live: liveShare(row[21].text, from: person.id, to: viewer))
        return Candidate(person: person, facts: facts, details: FriendDetails(snapstreak: row[16].integer ?? 0, bestFriend: row[17].integer == 1),
                         birthday: birthday(row, from: 22))
    }
}
