import Foundation
import SQLiteKit

/// Copies the write-ahead log into the database on its own connection and thread, so that no commit waits for a
/// checkpoint (the writer's automatic checkpoints are off). Passive: it never blocks readers or the writer.
final class SQLiteCheckpointer: @unchecked Sendable {
    static let interval = 0.5
    private let database: SQLiteDatabase
    private let condition = NSCondition()
    private var stopped = false

    init(path: String) throws {
        database = try SQLiteDatabase(path: path, create: false)
        let thread = Thread { self.loop() }
        thread.name = "snapmap-sqlite-checkpoint"
        thread.start()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            if !stopped { _ = condition.wait(until: Date().addingTimeInterval(Self.interval)) }
            let done = stopped
            condition.unlock()
            try? database.execute("PRAGMA wal_checkpoint(PASSIVE)")
            if done { return }
        }
    }
}
