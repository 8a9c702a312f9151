import Foundation
import SQLiteKit

/// The one writing connection of a SQLite store, on its own thread, with group commit: writes that arrive
/// together run in one transaction (each in its own savepoint, so one failing write rolls back only itself),
/// and each caller returns only after the transaction that holds its write has committed. Once the file has
/// gone from its path (SQLite's check after each commit) or is known damaged, batches are refused, and the batch
/// during which it went is not acknowledged.
final class SQLiteWriter: @unchecked Sendable {
    /// The most writes one transaction takes.
    static let maxBatch = 512

    private final class Job: @unchecked Sendable {
        let work: (SQLiteDatabase) throws -> any Sendable
        var result: Result<any Sendable, any Error> = .failure(LiveMapError.unavailable(message: "not run"))
        /// Called on the writing thread once the transaction committed (or failed); else `done` is signalled.
        let completion: (@Sendable (Result<any Sendable, any Error>) -> Void)?
        let done = DispatchSemaphore(value: 0)

        init(_ work: @escaping (SQLiteDatabase) throws -> any Sendable, completion: (@Sendable (Result<any Sendable, any Error>) -> Void)? = nil) {
            self.work = work
            self.completion = completion
        }

        func finish() {
            if let completion { completion(result) } else { done.signal() }
        }
    }

    private let database: SQLiteDatabase
    private let health: SQLiteFileHealth
    private let thread = StoppableThread()
    /// The writes not yet taken into a transaction; read and changed with `thread.condition` held.
    private var pending: [Job] = []

    init(database: SQLiteDatabase, health: SQLiteFileHealth) {
        self.database = database
        self.health = health
        thread.start(name: "snapmap-sqlite-writer") { self.loop() }
    }

    /// Ends the writing thread once the queued writes are done.
    func stop() { thread.stop() }

    /// Runs `work` inside a committed transaction and returns its result.
    func perform<T: Sendable>(_ work: @escaping (SQLiteDatabase) throws -> T) throws -> T {
        let job = Job { try work($0) }
        try enqueue(job)
        job.done.wait()
        return try job.result.get() as! T
    }

    /// Runs `work` inside a transaction and hands its result to `completion` once committed, on the writing
    /// thread (keep it short); the caller does not wait.
    func submit<T: Sendable>(_ work: @escaping (SQLiteDatabase) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        let job = Job({ try work($0) }, completion: { result in completion(result.map { $0 as! T }) })
        do {
            try enqueue(job)
        } catch {
            completion(.failure(error))
        }
    }

    private func enqueue(_ job: Job) throws {
        let condition = thread.condition
        condition.lock()
        defer { condition.unlock() }
        guard !thread.stopped else { throw LiveMapError.unavailable(message: "the store is closed") }
        pending.append(job)
        condition.signal()
    }

    private func loop() {
        let condition = thread.condition
        while true {
            condition.lock()
            while pending.isEmpty && !thread.stopped { condition.wait() }
            if pending.isEmpty && thread.stopped {
                condition.unlock()
                return
            }
            let batch = Array(pending.prefix(Self.maxBatch))
            pending.removeFirst(batch.count)
            condition.unlock()
            commit(batch)
        }
    }

    private func commit(_ batch: [Job]) {
        defer { for job in batch { job.finish() } }
        if let gone = health.lastingFault { return refuse(batch, gone) }
        let faultsBefore = health.faultCount
        do {
            try database.execute("BEGIN IMMEDIATE")
            for job in batch {
                try database.execute("SAVEPOINT write")
                do {
                    job.result = .success(try job.work(database))
                    try database.execute("RELEASE write")
                } catch {
                    job.result = .failure(health.failed(error))
                    try database.execute("ROLLBACK TO write")
                    try database.execute("RELEASE write")
                }
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            let sorted = health.failed(error)
            for job in batch { job.result = .failure(sorted as? LiveMapError ?? LiveMapError.unavailable(message: "\(error)")) }
            return
        }
        // A file that went while the batch was written took the batch with it: none of it is acknowledged.
        if database.fileHasMoved { return refuse(batch, health.fileMoved()) }
        health.committed(faultsBefore: faultsBefore)
    }

    private func refuse(_ batch: [Job], _ reason: String) {
        for job in batch { job.result = .failure(LiveMapError.unavailable(message: reason)) }
    }
}
