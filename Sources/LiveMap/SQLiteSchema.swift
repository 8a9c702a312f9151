import Foundation
import GeoCore
import SQLiteKit

/// The live store's tables, its queries and the mapping between rows and the model.
enum SQLiteSchema {
    static let version1 = """
        CREATE TABLE people (id TEXT PRIMARY KEY, name TEXT NOT NULL, color TEXT NOT NULL, avatar TEXT,
            ghost TEXT NOT NULL, ghost_hours INTEGER NOT NULL, ghost_until_ms INTEGER NOT NULL,
            audience TEXT NOT NULL, audience_ids TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE asks (from_id TEXT NOT NULL REFERENCES people(id), to_id TEXT NOT NULL REFERENCES people(id),
            snapstreak INTEGER NOT NULL, best INTEGER NOT NULL, PRIMARY KEY (from_id, to_id)) WITHOUT ROWID;
        CREATE INDEX asks_by_target ON asks (to_id, from_id);
        CREATE TABLE blocks (blocker TEXT NOT NULL REFERENCES people(id), blocked TEXT NOT NULL REFERENCES people(id),
            PRIMARY KEY (blocker, blocked)) WITHOUT ROWID;
        CREATE TABLE fixes (id TEXT PRIMARY KEY REFERENCES people(id), lat REAL NOT NULL, lon REAL NOT NULL,
            accuracy REAL NOT NULL, taken_ms INTEGER NOT NULL, place TEXT) WITHOUT ROWID;
        CREATE TABLE tokens (hash TEXT PRIMARY KEY, person TEXT NOT NULL REFERENCES people(id)) WITHOUT ROWID;
        CREATE INDEX tokens_by_person ON tokens (person);
        """

    private static let candidateColumns = """
        SELECT p.id, p.name, p.color, p.avatar, p.ghost, p.ghost_hours, p.ghost_until_ms, p.audience, p.audience_ids,
            f.lat, f.lon, f.accuracy, f.taken_ms, f.place, mine.snapstreak, mine.best, mine.from_id IS NOT NULL,
            EXISTS (SELECT 1 FROM asks t WHERE t.from_id = p.id AND t.to_id = ?1),
            EXISTS (SELECT 1 FROM blocks b WHERE b.blocker = ?1 AND b.blocked = p.id)
                OR EXISTS (SELECT 1 FROM blocks b WHERE b.blocker = p.id AND b.blocked = ?1)
        """
    static let candidatesQuery = candidateColumns + """

        FROM asks mine JOIN people p ON p.id = mine.to_id LEFT JOIN fixes f ON f.id = p.id
        WHERE mine.from_id = ?1 ORDER BY p.id
        """
    static let candidateQuery = candidateColumns + """

        FROM people p LEFT JOIN asks mine ON mine.from_id = ?1 AND mine.to_id = p.id LEFT JOIN fixes f ON f.id = p.id
        WHERE p.id = ?2
        """
    static let relationsQuery = """
        SELECT p.id, p.name, p.color, p.avatar,
            EXISTS (SELECT 1 FROM asks a WHERE a.from_id = ?1 AND a.to_id = p.id),
            EXISTS (SELECT 1 FROM asks a WHERE a.from_id = p.id AND a.to_id = ?1)
        FROM people p WHERE p.id IN (SELECT to_id FROM asks WHERE from_id = ?1 UNION SELECT from_id FROM asks WHERE to_id = ?1)
        ORDER BY p.id
        """

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
        return try? LocationFix(coordinate: coordinate, accuracyMeters: accuracy, takenAt: date(taken), place: row[first + 4].text)
    }

    static func candidate(_ row: [SQLiteDatabase.Value], viewer: PersonID) -> Candidate {
        let person = person(row)
        let facts = VisibilityFacts(viewer: viewer, person: person.id, viewerAsked: row[16].integer == 1, personAsked: row[17].integer == 1,
                                    blocked: row[18].integer == 1, settings: settings(row, from: 4), fix: fix(row, from: 9))
        return Candidate(person: person, facts: facts, details: FriendDetails(snapstreak: row[14].integer ?? 0, bestFriend: row[15].integer == 1))
    }
}
