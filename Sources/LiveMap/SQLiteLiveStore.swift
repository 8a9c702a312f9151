import Foundation
import GeoCore
import SQLiteKit

/// The embedded live store: one SQLite file in WAL mode, one writing thread with group commit, a pool of
/// readers. A write returns after its transaction committed (and, with `synchronous`, reached the disk).
public final class SQLiteLiveStore: LiveStore {
    /// The schema version this code writes; older files are migrated, newer ones refused.
    public static let schemaVersion = 9
    /// Page cache of the writing connection and of each reading one, in KiB.
    static let writerCacheKiB = 262_144
    static let readerCacheKiB = 65_536
    /// How much of the file is read through a memory map (no read call per page).
    static let mapBytes = 4 << 30
    static let migrations = [SQLiteSchema.version1, SQLiteSchema.version2, SQLiteSchema.version3, ordersSchema, liveSharesSchema, footstepsSchema,
                             SQLiteSchema.version7, footstepsCellSchema, SQLiteSchema.version9]

    public let path: String
    let fileHealth: SQLiteFileHealth
    let writer: SQLiteWriter
    let readers: SQLiteReaderPool
    /// Names this instance's rows in the change log, so its own feed skips them.
    let origin = UUID().uuidString
    private let checkpointer: SQLiteCheckpointer
    private let integrityWatch: SQLiteIntegrityWatch?

    /// Opens or creates the store at `path` (its directory is created). `synchronous` makes every commit wait
    /// for the disk (survives power loss); without it a commit survives a crash of the process. With
    /// `integrityChecks`, the whole file is checked that often (a server's store), and damage found stops its writes.
    public init(path: String, synchronous: Bool = true, integrityChecks: Duration? = nil) throws {
        self.path = path
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = \(synchronous ? "FULL" : "NORMAL"); PRAGMA secure_delete = ON; PRAGMA cache_size = -\(Self.writerCacheKiB); PRAGMA mmap_size = \(Self.mapBytes); PRAGMA wal_autocheckpoint = 0")
        try Self.migrate(database)
        fileHealth = SQLiteFileHealth(path: path)
        writer = SQLiteWriter(database: database, health: fileHealth)
        readers = SQLiteReaderPool(path: path)
        checkpointer = try SQLiteCheckpointer(path: path)
        let health = fileHealth
        integrityWatch = integrityChecks.map { SQLiteIntegrityWatch(path: path, interval: $0, health: health) }
    }

    deinit {
        writer.stop()
        checkpointer.stop()
        integrityWatch?.stop()
    }

    /// Brings the file to `schemaVersion`, one migration per transaction (safe when two processes open a new
    /// file at once: each step re-reads the version inside its transaction).
    static func migrate(_ database: SQLiteDatabase) throws {
        while true {
            let done: Bool = try database.transaction {
                let version = try database.query("PRAGMA user_version").first?.first?.integer ?? 0
                guard version <= schemaVersion else {
                    throw LiveMapError.unavailable(message: "\(database.path) has schema version \(version); this snapmap knows up to \(schemaVersion)")
                }
                guard version < schemaVersion else { return true }
                try database.execute(migrations[version])
                try database.execute("PRAGMA user_version = \(version + 1)")
                return false
            }
            if done { return }
        }
    }

    @discardableResult
    func write<T: Sendable>(_ work: @escaping (SQLiteDatabase) throws -> T) throws -> T {
        try writer.perform(work)
    }

    func read<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        do {
            return try readers.read(body)
        } catch {
            throw fileHealth.failed(error)
        }
    }

    public func addPerson(_ person: Person, settings: SharingSettings) throws -> Bool {
        let row: [SQLiteDatabase.Value] = [.text(person.id.rawValue), .text(person.name), .text(person.color), person.avatar.map { .text($0) } ?? .null]
            + SQLiteSchema.values(settings)
        return try write { database in
            try database.change(SQLiteSchema.insertPerson(orReplace: false), row) == 1
        }
    }

    public func person(_ id: PersonID) throws -> Person? {
        try read { database in
            try database.query("SELECT id, name, color, avatar FROM people WHERE id = ?", [.text(id.rawValue)]).first.map(SQLiteSchema.person)
        }
    }

    public func people(after: PersonID?, limit: Int) throws -> [Person] {
        try read { database in
            try database.query("SELECT id, name, color, avatar FROM people WHERE id > ? ORDER BY id LIMIT ?",
                               [.text(after?.rawValue ?? ""), .integer(limit)]).map(SQLiteSchema.person)
        }
    }

    public func addAsk(from: PersonID, to: PersonID, details: FriendDetails) throws {
        try write { database in
            // An ask that read the pair's standing before a block landed, or before either account went, keeps nothing.
            guard try SQLiteSchema.bothExist(database, from, to), try !SQLiteSchema.blocked(database, from, to) else { return }
            try SQLiteSchema.addAsk(database, [.text(from.rawValue), .text(to.rawValue), .integer(details.snapstreak), .integer(details.bestFriend ? 1 : 0)])
            try self.log(database, .change(.pair(from, to)))
        }
    }

    public func removeAsks(between first: PersonID, and second: PersonID) throws {
        try write { database in
            try SQLiteSchema.deleteAsks(database, first, second)
            try self.log(database, .change(.pair(first, second)))
        }
    }

    public func asks(from: PersonID, to: PersonID) throws -> Bool {
        try read { database in
            try !database.query("SELECT 1 FROM asks WHERE from_row = \(SQLiteSchema.row(1)) AND to_row = \(SQLiteSchema.row(2))",
                                [.text(from.rawValue), .text(to.rawValue)]).isEmpty
        }
    }

    public func addBlock(by blocker: PersonID, on blocked: PersonID) throws {
        try write { database in
            try database.change("INSERT OR IGNORE INTO blocks VALUES (\(SQLiteSchema.row(1)), \(SQLiteSchema.row(2)))",
                                [.text(blocker.rawValue), .text(blocked.rawValue)])
            try SQLiteSchema.deleteAsks(database, blocker, blocked)
            try self.log(database, .change(.pair(blocker, blocked)))
        }
    }

    public func removeBlock(by blocker: PersonID, on blocked: PersonID) throws -> Bool {
        try write { database in
            let removed = try database.change("DELETE FROM blocks WHERE blocker_row = \(SQLiteSchema.row(1)) AND blocked_row = \(SQLiteSchema.row(2))",
                                              [.text(blocker.rawValue), .text(blocked.rawValue)]) == 1
            if removed { try self.log(database, .change(.pair(blocker, blocked))) }
            return removed
        }
    }

    public func blocked(between first: PersonID, and second: PersonID) throws -> Bool {
        try read { database in
            try !database.query("""
                SELECT 1 FROM blocks WHERE (blocker_row = \(SQLiteSchema.row(1)) AND blocked_row = \(SQLiteSchema.row(2)))
                    OR (blocker_row = \(SQLiteSchema.row(2)) AND blocked_row = \(SQLiteSchema.row(1)))
                """, [.text(first.rawValue), .text(second.rawValue)]).isEmpty
        }
    }

    public func relations(of id: PersonID) throws -> [Relation] {
        try read { database in
            try database.query(SQLiteSchema.relationsQuery, [.text(id.rawValue)]).map { row in
                let asked = row[4].integer == 1, theyAsked = row[5].integer == 1
                return Relation(person: SQLiteSchema.person(row), status: asked && theyAsked ? .friends : asked ? .requested : .incoming,
                                birthday: SQLiteSchema.birthday(row, from: 6))
            }
        }
    }

    public func related(to id: PersonID) throws -> [PersonID] {
        try read { database in
            try database.query("""
                SELECT p.id FROM people p WHERE p.row IN (SELECT to_row FROM asks WHERE from_row = \(SQLiteSchema.row(1))
                    UNION SELECT from_row FROM asks WHERE to_row = \(SQLiteSchema.row(1)))
                """, [.text(id.rawValue)])
                .compactMap { $0[0].text.map(PersonID.init(trusted:)) }
        }
    }

    public func birthday(of id: PersonID) throws -> Birthday? {
        try read { database in
            try database.query("SELECT birth_month, birth_day FROM people WHERE id = ?", [.text(id.rawValue)]).first
                .flatMap { SQLiteSchema.birthday($0, from: 0) }
        }
    }

    public func setBirthday(_ birthday: Birthday?, of id: PersonID) throws {
        try write { database in
            let changed = try database.change("UPDATE people SET birth_month = ?1, birth_day = ?2 WHERE id = ?3",
                                              [birthday.map { .integer($0.month) } ?? .null, birthday.map { .integer($0.day) } ?? .null, .text(id.rawValue)])
            if changed == 1 { try self.log(database, .change(.person(id))) }
        }
    }

    public func sharing(of id: PersonID) throws -> SharingSettings? {
        try read { database in
            try database.query("SELECT ghost, ghost_hours, ghost_until_ms, audience, audience_ids FROM people WHERE id = ?", [.text(id.rawValue)])
                .first.map { SQLiteSchema.settings($0, from: 0) }
        }
    }

    public func setSharing(_ settings: SharingSettings, of id: PersonID) throws {
        try write { database in
            try database.change("UPDATE people SET ghost = ?, ghost_hours = ?, ghost_until_ms = ?, audience = ?, audience_ids = ? WHERE id = ?",
                                SQLiteSchema.values(settings) + [.text(id.rawValue)])
            try self.log(database, .change(.person(id)))
        }
    }

    public func recordFix(_ fix: LocationFix, of id: PersonID) throws -> Bool {
        try write { database in try self.recordFix(fix, of: id, database) }
    }

    public func recordFix(_ fix: LocationFix, of id: PersonID, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        writer.submit({ database in try self.recordFix(fix, of: id, database) }, completion: completion)
    }

    public func addSnaps(_ snaps: [PublicSnap]) throws {
        let rows = snaps.map(SQLiteSchema.values)
        try write { database in
            try database.run(SQLiteSchema.insertSnap, rows: rows)
            for snap in snaps { try self.log(database, .snap(snap)) }
        }
    }

    public func addSnap(_ snap: PublicSnap, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        let row = SQLiteSchema.values(snap)
        writer.submit({ database in
            guard try database.change(SQLiteSchema.insertPersonsSnap, row) == 1 else { return false }
            try self.log(database, .snap(snap))
            return true
        }, completion: completion)
    }

    public func snaps(since: Date) throws -> [PublicSnap] {
        try read { database in
            try database.query("SELECT poster, lat, lon, taken_ms FROM snaps WHERE taken_ms >= ? ORDER BY id", [.integer(SQLiteSchema.milliseconds(since))])
                .compactMap(SQLiteSchema.snap)
        }
    }

    public func pruneSnaps(before: Date) throws -> Int {
        try write { database in try database.change("DELETE FROM snaps WHERE taken_ms < ?", [.integer(SQLiteSchema.milliseconds(before))]) }
    }

    public func fix(of id: PersonID) throws -> LocationFix? {
        try read { database in
            try database.query("SELECT \(SQLiteSchema.fixColumns) FROM people p WHERE p.id = ?", [.text(id.rawValue)]).first
                .flatMap { SQLiteSchema.fix($0, from: 0) }
        }
    }

    public func addToken(hash: String, for id: PersonID) throws {
        try write { database in
            try database.change("INSERT INTO tokens VALUES (?1, \(SQLiteSchema.row(2)))", [.text(hash), .text(id.rawValue)])
        }
    }

    public func tokenOwner(hash: String) throws -> PersonID? {
        try read { database in
            try database.query("SELECT p.id FROM tokens t JOIN people p ON p.row = t.person_row WHERE t.hash = ?", [.text(hash)])
                .first?.first?.text.map(PersonID.init(trusted:))
        }
    }

    public func revokeTokens(of id: PersonID) throws -> Int {
        try write { database in
            let count = try database.change("DELETE FROM tokens WHERE person_row = \(SQLiteSchema.row(1))", [.text(id.rawValue)])
            try self.log(database, .change(.sessions(id)))
            return count
        }
    }

    public func candidates(of viewer: PersonID) throws -> [Candidate] {
        try read { database in
            try database.query(SQLiteSchema.candidatesQuery, [.text(viewer.rawValue)]).map { SQLiteSchema.candidate($0, viewer: viewer) }
                .sorted { $0.person.id < $1.person.id }
        }
    }

    public func candidate(viewer: PersonID, person: PersonID) throws -> Candidate? {
        try read { database in
            try database.query(SQLiteSchema.candidateQuery, [.text(viewer.rawValue), .text(person.rawValue)]).first
                .map { SQLiteSchema.candidate($0, viewer: viewer) }
        }
    }
}
