import CSQLite
import Foundation

/// A small wrapper over SQLite: open, execute, cached prepared statements with integer, real, text and blob
/// values, transactions. Not thread-safe: one connection per thread (or behind a lock); errors carry
/// SQLite's message.
public final class SQLiteDatabase {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// SQLite's primary result code (SQLITE_CONSTRAINT, SQLITE_BUSY, …).
        public let code: Int32
        /// The system's errno behind an I/O failure (ENOSPC, EIO, …), else 0.
        public var systemError: Int32 = 0

        /// What a failure says about the file or the disk under it.
        public enum Fault: Sendable {
            /// SQLITE_FULL, or an I/O error the system gave as ENOSPC or EDQUOT.
            case diskFull
            /// The file is damaged (SQLITE_CORRUPT) or not a database (SQLITE_NOTADB).
            case damaged
            case ioError, cannotOpen, readOnly, busy
        }

        /// The fault, when the failure is one of the file or the disk (not of a statement or its values).
        public var fault: Fault? {
            if code == SQLITE_FULL || systemError == ENOSPC || systemError == EDQUOT { return .diskFull }
            switch code {
            case SQLITE_CORRUPT, SQLITE_NOTADB: return .damaged
            case SQLITE_IOERR: return .ioError
            case SQLITE_CANTOPEN: return .cannotOpen
            case SQLITE_READONLY: return .readOnly
            case SQLITE_BUSY, SQLITE_LOCKED: return .busy
            default: return nil
            }
        }
    }

    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    public let path: String

    /// Opens the database file, creating it when missing unless `readOnly` or not `create`.
    public init(path: String, readOnly: Bool = false, create: Bool = true) throws(Failure) {
        self.path = path
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        guard sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw Failure(description: "\(path): \(message)", code: SQLITE_CANTOPEN)
        }
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(handle)
    }

    /// Whether the file this connection opened was deleted or replaced at its path since (SQLite's own check, one
    /// stat; the connection still reads and writes the file it opened).
    public var fileHasMoved: Bool {
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(Failure) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw Self.failure(path: path, message: "\(text) in \(sql.prefix(80))", code: status & 0xFF, systemError: sqlite3_system_errno(handle))
        }
    }

    /// A value to bind to a statement parameter or read from a column.
    public enum Value: Sendable, Equatable {
        case null
        case integer(Int)
        case real(Double)
        case text(String)
        case blob([UInt8])
    }

    /// Runs a statement once per row of bindings (in one prepared statement), returning nothing.
    public func run(_ sql: String, rows: [[Value]]) throws(Failure) {
        let statement = try prepare(sql)
        defer { sqlite3_reset(statement) }
        for row in rows {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            for (index, value) in row.enumerated() { try bind(value, at: Int32(index + 1), in: statement) }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(sql) }
        }
    }

    /// Runs one statement with its parameters and returns how many rows it changed.
    @discardableResult
    public func change(_ sql: String, _ parameters: [Value] = []) throws(Failure) -> Int {
        try run(sql, rows: [parameters])
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and returns every row by column.
    public func query(_ sql: String, _ parameters: [Value] = []) throws(Failure) -> [[Value]] {
        let statement = try prepare(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in parameters.enumerated() { try bind(value, at: Int32(index + 1), in: statement) }
        var rows: [[Value]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw failure(sql) }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
        return rows
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE` … `COMMIT`), rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func column(_ statement: OpaquePointer?, _ column: Int32) -> Value {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(Int(sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
        }
    }

    private func prepare(_ sql: String) throws(Failure) -> OpaquePointer? {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure(sql) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: Value, at index: Int32, in statement: OpaquePointer?) throws(Failure) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let status: Int32
        switch value {
        case .null: status = sqlite3_bind_null(statement, index)
        case .integer(let number): status = sqlite3_bind_int64(statement, index, Int64(number))
        case .real(let number): status = sqlite3_bind_double(statement, index, number)
        case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, transient)
        case .blob(let bytes): status = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
        }
        guard status == SQLITE_OK else { throw failure("bind parameter \(index)") }
    }

    private func failure(_ context: String) -> Failure {
        Self.failure(path: path, message: "\(String(cString: sqlite3_errmsg(handle))) (\(context.prefix(80)))", code: sqlite3_errcode(handle) & 0xFF,
                     systemError: sqlite3_system_errno(handle))
    }

    /// A failure whose message says "disk full" when it is (SQLite reports ENOSPC in the -shm as "disk I/O error").
    private static func failure(path: String, message: String, code: Int32, systemError: Int32) -> Failure {
        var failure = Failure(description: "", code: code, systemError: code == SQLITE_IOERR || code == SQLITE_FULL ? systemError : 0)
        failure.description = "\(path): " + (failure.fault == .diskFull ? "disk full (\(message))" : message)
        return failure
    }
}

extension SQLiteDatabase.Value {
    public var integer: Int? { if case .integer(let value) = self { return value } else { return nil } }
    /// A real, or an integer read as a real.
    public var real: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
    public var text: String? { if case .text(let value) = self { return value } else { return nil } }
    public var blob: [UInt8]? { if case .blob(let value) = self { return value } else { return nil } }
}
