import Foundation
import SQLiteKit

/// What other processes write to a SQLite store (the operator's CLI, a second server on the same file), heard by
/// polling the change log every `pollInterval`: each store write adds its message to the log in its own
/// transaction, so a change is never made without being told, and publishing here has nothing left to do.
/// A listener that fell behind the log's pruning gets `.resync`. The log is pruned without the poll waiting for
/// that commit, so a slow disk never holds what is heard.
public final class SQLiteChangeFeed: LiveBus, BusLiveness, @unchecked Sendable {
    /// How often the log is read: the most a change made elsewhere waits before it reaches this process.
    public static let pollInterval = 0.05
    /// How long log rows are kept; a listener further behind than this resyncs.
    public static let retention = 30.0

    private let store: SQLiteLiveStore
    /// How often the log is pruned (`retention / 4` unless a test says otherwise).
    private let pruneEvery: Double
    private let lock = NSLock()
    private var handlers: [@Sendable (LiveBusMessage) -> Void] = []
    private var started = false
    private var caughtUp: UInt64?
    private var pruning = false

    /// The instant each poll started, once it delivered every row it read: all changes made before it are heard.
    public var caughtUpAt: UInt64? { lock.withLock { caughtUp } }

    init(store: SQLiteLiveStore, pruneEvery: Double = SQLiteChangeFeed.retention / 4) {
        self.store = store
        self.pruneEvery = pruneEvery
    }

    /// The store's own writes logged the change already.
    public func publish(_ message: LiveBusMessage) {}

    public func listen(_ handler: @escaping @Sendable (LiveBusMessage) -> Void) {
        lock.lock()
        handlers.append(handler)
        let start = !started
        started = true
        lock.unlock()
        let opened = DispatchTime.now().uptimeNanoseconds
        guard start, let first = try? SQLiteDatabase(path: store.path) else { return }
        let latest = Self.highWater(first)
        // A change committed before `opened` is at or below the cursor: this listener starts caught up to it.
        if latest != nil { lock.withLock { caughtUp = opened } }
        let cursor = latest ?? 0
        let (path, pruneEvery) = (store.path, pruneEvery)
        let thread = Thread { [weak self] in
            guard let database = try? SQLiteDatabase(path: path) else { return }
            try? database.execute("PRAGMA query_only = 1")
            var cursor = cursor
            var lastPrune = Date()
            while let feed = self {
                cursor = feed.poll(database, after: cursor)
                if Date().timeIntervalSince(lastPrune) > pruneEvery {
                    lastPrune = Date()
                    feed.prune(before: lastPrune.addingTimeInterval(-Self.retention))
                }
                Thread.sleep(forTimeInterval: Self.pollInterval)
            }
        }
        thread.name = "snapmap-sqlite-changes"
        thread.start()
    }

    /// Queues the removal of the rows written before `before`, unless the last one is still queued; never waits.
    private func prune(before: Date) {
        let queued: Bool = lock.withLock {
            defer { pruning = true }
            return pruning
        }
        guard !queued else { return }
        store.pruneChanges(before: before) { [weak self] in
            guard let self else { return }
            lock.withLock { pruning = false }
        }
    }

    /// The seq of the last row ever written to the log (AUTOINCREMENT keeps it in `sqlite_sequence`); nil unread.
    private static func highWater(_ database: SQLiteDatabase) -> Int? {
        try? database.query("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0)").first?.first?.integer
    }

    /// Delivers the rows after `cursor` written by other instances; returns the new cursor.
    private func poll(_ database: SQLiteDatabase, after cursor: Int) -> Int {
        let started = DispatchTime.now().uptimeNanoseconds
        // The high-water mark is read before the rows: a row committed between the two reads is then above it and
        // read by the next poll, rather than taken for a pruned one (a needless resync that skipped it).
        let top = Self.highWater(database)
        guard let rows = try? database.query("SELECT seq, origin, message FROM changes WHERE seq > ? ORDER BY seq LIMIT 1000", [.integer(cursor)]) else { return cursor }
        guard let last = rows.last?[0].integer else {
            // Every row after the cursor up to the mark was pruned unheard (this process stood still past the
            // retention): pruning never lowers the mark.
            guard let top else { return cursor }
            if top > cursor, cursor > 0 { for handler in lock.withLock({ handlers }) { handler(.resync) } }
            lock.withLock { caughtUp = started }
            return max(top, cursor)
        }
        lock.lock()
        let current = handlers
        lock.unlock()
        var messages: [LiveBusMessage] = []
        if let first = rows.first?[0].integer, first > cursor + 1, cursor > 0 { messages.append(.resync) }
        messages += rows.compactMap { row in row[1].text == store.origin ? nil : row[2].text.flatMap(LiveBusMessage.init(text:)) }
        for message in messages { for handler in current { handler(message) } }
        if rows.count < 1000 { lock.withLock { caughtUp = started } }
        return last
    }
}
