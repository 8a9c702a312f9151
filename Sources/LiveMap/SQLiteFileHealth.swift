import Foundation
import SQLiteKit

/// What a SQLite store knows of its file's health. The file is watched by its path (after each write batch, by
/// SQLite's own check; at each health check, by device, inode and size): once the path names another file
/// (deleted, replaced) or a shorter one (truncated: the file only grows while open), the store's writes would
/// land where no restart finds them, so from then on it takes none and reports why, until a restart checks the
/// file again. SQLite's failures are sorted the same way: a damaged file is a lasting fault; a full disk or an
/// I/O error is reported while it recurs (for `passingFor` after the last one).
final class SQLiteFileHealth: @unchecked Sendable {
    /// How long a full disk or an I/O error is still reported after the last write it failed.
    static let passingFor: Duration = .seconds(10)

    private struct Identity: Equatable {
        let device: Int
        let inode: Int
    }

    private let path: String
    private let identity: Identity?
    private let lock = NSLock()
    private var largest: Int
    private var lasting: String?
    private var passing: (reason: String, at: ContinuousClock.Instant)?
    private var faultsSeen = 0

    /// Watches the file at `path` as it is now (call right after opening it).
    init(path: String) {
        self.path = path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        identity = attributes.flatMap(Self.identity)
        largest = (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The lasting fault after looking at the path again; nil while it names the opened file, whole.
    func checkFile() -> String? {
        if let lasting = withLock({ lasting }) { return lasting }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        return withLock {
            if lasting == nil {
                if attributes == nil {
                    lasting = "the database file was deleted while the store was open"
                } else if attributes.flatMap(Self.identity) != identity {
                    lasting = "the database file was replaced by another file while the store was open"
                } else if size < largest {
                    lasting = "the database file was truncated while the store was open (\(size) bytes, was \(largest))"
                }
                largest = max(largest, size)
            }
            return lasting
        }
    }

    /// The fault that lasts until a restart, if one was seen (no look at the file).
    var lastingFault: String? {
        withLock { lasting }
    }

    /// A check of the whole file found it damaged: a lasting fault.
    func damaged(_ findings: [String]) {
        withLock {
            lasting = lasting ?? "the database file is damaged (PRAGMA quick_check: \(findings.prefix(2).joined(separator: "; "))); restore it from a backup"
        }
    }

    /// The writer's connection says its file went from the path: remembered, with why when the path tells.
    func fileMoved() -> String {
        let reason = checkFile() ?? "the database file was deleted or replaced while the store was open"
        return withLock {
            lasting = lasting ?? reason
            return lasting ?? reason
        }
    }

    /// The fault to report now: the lasting one, else a full disk or I/O error seen recently.
    var fault: String? {
        withLock {
            if let lasting { return lasting }
            guard let passing, ContinuousClock.now - passing.at < Self.passingFor else { return nil }
            return passing.reason
        }
    }

    /// How many faults of the file or the disk were sorted so far (a batch compares it before and after).
    var faultCount: Int {
        withLock { faultsSeen }
    }

    /// A transaction committed with no fault sorted since `faultCount` was `before`: the disk takes writes again.
    /// One whose write failed for a full disk commits an empty batch, which says nothing of the disk.
    func committed(faultsBefore before: Int) {
        withLock { if faultsSeen == before { passing = nil } }
    }

    /// Sorts a failure: SQLite's faults of the file or the disk become `unavailable` with a reason that names the
    /// fault and not the path (a damaged file is remembered); other errors pass unchanged.
    func failed(_ error: any Error) -> any Error {
        guard let failure = error as? SQLiteDatabase.Failure, let fault = failure.fault else { return error }
        let reason: String
        switch fault {
        case .diskFull: reason = "disk full"
        case .damaged: reason = "the database file is damaged (restore it from a backup)"
        case .ioError: reason = "disk I/O error"
        case .cannotOpen: reason = "the database file cannot be opened"
        case .readOnly: reason = "the database file is read-only"
        case .busy: reason = "the database is locked by another process"
        }
        return withLock {
            if fault != .busy { faultsSeen += 1 }
            if fault == .damaged {
                lasting = lasting ?? reason
            } else if fault != .busy {
                passing = (reason, ContinuousClock.now)
            }
            return LiveMapError.unavailable(message: lasting ?? reason)
        }
    }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private static func identity(_ attributes: [FileAttributeKey: Any]) -> Identity? {
        guard let device = (attributes[.systemNumber] as? NSNumber)?.intValue,
              let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue else { return nil }
        return Identity(device: device, inode: inode)
    }
}
