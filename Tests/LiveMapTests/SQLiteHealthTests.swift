import CSQLite
import Foundation
import GeoCore
@testable import SQLiteKit
import Testing
@testable import LiveMap

/// The SQLite store's own view of its file: gone, replaced, damaged, on a full disk.
@Suite("The SQLite store's health")
struct SQLiteHealthTests {
    private func store() throws -> (SQLiteLiveStore, String) {
        let path = SQLiteStoreTests.temporaryPath()
        let store = try SQLiteLiveStore(path: path, synchronous: false)
        #expect(try store.addPerson(StoreConformance.person("ann"), settings: .newPerson))
        return (store, path)
    }

    @Test func aDeletedFileTakesNoMoreWritesAndIsNotMadeAgain() throws {
        let (store, path) = try store()
        #expect(store.health() == .ready)
        try FileManager.default.removeItem(atPath: path)
        // The write lands in the unlinked file; SQLite's check after the commit refuses to acknowledge it.
        let reason = "the database file was deleted while the store was open"
        #expect(throws: LiveMapError.unavailable(message: reason)) {
            try store.recordFix(StoreConformance.fix(40.7, -73.9, at: 0), of: PersonID("ann"))
        }
        #expect(store.health() == .unavailable(reason: reason))
        #expect(throws: LiveMapError.unavailable(message: reason)) { try store.addSnaps([]) }
        #expect(!FileManager.default.fileExists(atPath: path), "no connection made a new, empty file at the path")
    }

    @Test func aTruncatedFileIsNoticed() throws {
        let (store, path) = try store()
        _ = try store.addSnaps((0..<2000).map { try PublicSnap(person: PersonID("ann"), coordinate: Coordinate(lat: 40.7, lon: -73.9),
                                                                takenAt: StoreConformance.t0.addingTimeInterval(Double($0))) })
        try SQLiteDatabase(path: path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(store.health() == .ready)
        #expect(truncate(path, 4096) == 0)
        #expect(store.health() != .ready)
    }

    /// A page in the middle of a table, which the readiness probe (both ends of each table) never reads, is found
    /// damaged by the server's whole-file check, and the store then takes no writes (it once took them for good).
    @Test func damageNoRequestReadsIsFoundByTheWholeFileCheck() async throws {
        let path = SQLiteStoreTests.temporaryPath()
        let watched = try SQLiteLiveStore(path: path, synchronous: false, integrityChecks: .milliseconds(50))
        #expect(try watched.addPerson(StoreConformance.person("ann"), settings: .newPerson))
        _ = try watched.addSnaps((0..<4000).map { try PublicSnap(person: PersonID("ann"), coordinate: Coordinate(lat: 40.7, lon: -73.9),
                                                                  takenAt: StoreConformance.t0.addingTimeInterval(Double($0))) })
        let plain = try SQLiteLiveStore(path: path, synchronous: false)
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let pageSize = try #require(try database.query("PRAGMA page_size").first?.first?.integer)
        let pages = try #require(try database.query("PRAGMA page_count").first?.first?.integer)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(pageSize * (pages / 2)))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try handle.close()
        let found = await Self.eventually(within: 10) { watched.health() != .ready }
        #expect(found, "the whole-file check found the damaged page \(pages / 2) of \(pages)")
        guard case .unavailable(let reason) = watched.health() else { return }
        #expect(reason.contains("damaged"), "\(reason)")
        #expect(throws: LiveMapError.unavailable(message: reason)) { try watched.recordFix(StoreConformance.fix(40.7, -73.9, at: 0), of: PersonID("ann")) }
        #expect(plain.health() == .ready, "the readiness probe alone does not read the page: the check is what found it")
    }

    private static func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    @Test func aFullDiskReadsAsDiskFull() {
        let ioError = SQLiteDatabase.Failure(description: "x", code: SQLITE_IOERR, systemError: ENOSPC)
        #expect(ioError.fault == .diskFull, "ENOSPC under SQLite's \"disk I/O error\"")
        #expect(SQLiteDatabase.Failure(description: "x", code: SQLITE_FULL).fault == .diskFull)
        #expect(SQLiteDatabase.Failure(description: "x", code: SQLITE_IOERR, systemError: EIO).fault == .ioError)
        #expect(SQLiteDatabase.Failure(description: "x", code: SQLITE_CONSTRAINT).fault == nil, "a statement's failure is no fault of the file")
        let health = SQLiteFileHealth(path: "/nonexistent")
        #expect(health.failed(ioError) as? LiveMapError == .unavailable(message: "disk full"))
        #expect(health.fault == "disk full", "reported while recent")
        health.committed(faultsBefore: health.faultCount)
        #expect(health.fault == nil, "a commit clears it")
    }

    /// A write that failed for a full disk rolls back only itself, and its batch then commits nothing: that commit
    /// says nothing of the disk, so readiness still says "disk full" (a clean-clone CI run found it "ok" here).
    @Test func aBatchWhoseWriteFoundTheDiskFullDoesNotClearIt() throws {
        let (store, _) = try store()
        #expect(throws: LiveMapError.unavailable(message: "disk full")) {
            try store.writer.perform { _ in throw SQLiteDatabase.Failure(description: "database or disk is full", code: SQLITE_FULL) }
        }
        #expect(store.health() == .unavailable(reason: "disk full"))
        _ = try store.recordFix(StoreConformance.fix(40.7, -73.9, at: 0), of: PersonID("ann"))
        #expect(store.health() == .ready, "a write that commits clears it")
    }

    @Test func aServerRefusesAMissingFileAndAnEmptyOne() throws {
        let path = SQLiteStoreTests.temporaryPath()
        #expect(throws: LiveMapError.self) { try SQLiteLiveStore.checkFile(path: path, mustExist: true) }
        try SQLiteLiveStore.checkFile(path: path, mustExist: false)
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: LiveMapError.self) { try SQLiteLiveStore.checkFile(path: path, mustExist: false) }
    }
}
