import Foundation
import SQLiteKit

/// Reading connections of a SQLite store in WAL mode, handed out one per caller at a time. They never create the
/// file: once it is deleted, a new connection fails instead of making an empty one at the path.
final class SQLiteReaderPool: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var idle: [SQLiteDatabase] = []

    init(path: String) {
        self.path = path
    }

    func read<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        let database: SQLiteDatabase
        if let reused {
            database = reused
        } else {
            database = try SQLiteDatabase(path: path, create: false)
            try database.execute("PRAGMA query_only = 1; PRAGMA cache_size = -\(SQLiteLiveStore.readerCacheKiB); PRAGMA mmap_size = \(SQLiteLiveStore.mapBytes)")
        }
        defer {
            lock.lock()
            idle.append(database)
            lock.unlock()
        }
        return try body(database)
    }
}
