import Foundation
import SQLiteKit

/// Copies the write-ahead log into the database on its own connection and thread, so that no commit waits for a
/// checkpoint (the writer's automatic checkpoints are off). Passive: it never blocks readers or the writer.
final class SQLiteCheckpointer: @unchecked Sendable {
    static let interval = 0.5
    private let database: SQLiteDatabase
    private let thread = StoppableThread()

    init(path: String) throws {
        database = try SQLiteDatabase(path: path, create: false)
        thread.start(name: "snapmap-sqlite-checkpoint") { self.loop() }
    }

    func stop() { thread.stop() }

    private func loop() {
        let condition = thread.condition
        while true {
            condition.lock()
            if !thread.stopped { _ = condition.wait(until: Date().addingTimeInterval(Self.interval)) }
            let done = thread.stopped
            condition.unlock()
            try? database.execute("PRAGMA wal_checkpoint(PASSIVE)")
            if done { return }
        }
    }
}
