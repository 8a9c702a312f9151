import Foundation
import SQLiteKit

extension SQLiteLiveStore {
    /// Reads both ends of every table and index (a few pages each): it fails on a file damaged or cut short there.
    static let probe = ["people": ["row", "id"], "asks": ["from_row", "to_row"], "blocks": ["blocker_row"], "tokens": ["hash", "person_row"],
                        "snaps": ["id", "taken_ms"]]
        .sorted { $0.key < $1.key }
        .flatMap { table, columns in columns.flatMap { ["(SELECT min(\($0)) FROM \(table))", "(SELECT max(\($0)) FROM \(table))"] } }
        .joined(separator: ", ")

    /// How often a server's store checks its whole file (less often when a check takes over 3 s).
    public static let servingIntegrityChecks = Duration.seconds(60)

    /// Ready while the path still names the opened file, whole, no lasting or recent fault was seen, and the probe
    /// reads; else the fault (a cheap check: a stat and a few pages, for a readiness probe).
    public func health() -> StoreHealth {
        if let fault = fileHealth.checkFile() ?? fileHealth.fault { return .unavailable(reason: fault) }
        do {
            _ = try read { try $0.query("SELECT " + Self.probe) }
        } catch LiveMapError.unavailable(let message) {
            return .unavailable(reason: message)
        } catch {
            return .unavailable(reason: "the database cannot be read")
        }
        return .ready
    }

    /// Checks a store file before a server opens it; throws `unavailable` saying what is wrong and what to do when
    /// it is missing (and `mustExist`), empty, not writable (SQLite maps the -shm into memory: one it cannot write
    /// kills the process with SIGBUS) or damaged (`PRAGMA quick_check`).
    public static func checkFile(path: String, mustExist: Bool) throws {
        let files = FileManager.default
        guard files.fileExists(atPath: path) else {
            guard !mustExist else {
                throw LiveMapError.unavailable(message: "\(path) does not exist (deleted, or never made): serve makes no store without --demo; "
                                               + "restore the file, or make a store with `snapmap seed --db \(path)`")
            }
            return
        }
        for file in [path, path + "-wal", path + "-shm"] where files.fileExists(atPath: file) {
            guard let handle = FileHandle(forUpdatingAtPath: file) else {
                throw LiveMapError.unavailable(message: "\(file) cannot be written (see its permissions with ls -l and its attributes with lsattr); "
                                               + "SQLite maps it into memory and would crash on it")
            }
            try? handle.close()
        }
        guard let size = (try? files.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue > 0 else {
            throw LiveMapError.unavailable(message: "\(path) is empty: truncated, or not a store; restore it from a backup")
        }
        let problems = try quickCheck(path)
        guard problems.isEmpty else {
            throw LiveMapError.unavailable(message: "\(path) is damaged (PRAGMA quick_check: \(problems.prefix(3).joined(separator: "; "))); "
                                           + "snapmap will not serve it: restore it from a backup")
        }
    }

    /// What `PRAGMA quick_check` finds wrong (nothing: an empty list); a file SQLite cannot read as a database is one finding.
    static func quickCheck(_ path: String) throws -> [String] {
        let result = Result { () throws(SQLiteDatabase.Failure) -> [[SQLiteDatabase.Value]] in
            try SQLiteDatabase(path: path, create: false).query("PRAGMA quick_check(5)")
        }
        switch result {
        case .success(let rows): return rows.compactMap { $0.first?.text }.filter { $0 != "ok" }
        case .failure(let failure) where failure.fault == .damaged: return [failure.description]
        case .failure(let failure): throw failure
        }
    }
}
