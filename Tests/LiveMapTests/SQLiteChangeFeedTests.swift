import Foundation
@testable import LiveMap
import SQLiteKit
import Testing

/// How current the SQLite change feed says it is (readiness says "degraded" past `LiveView.stalenessBound`).
@Suite("SQLite change feed liveness")
struct SQLiteChangeFeedTests {
    /// Seconds since `feed` last heard all of the log; infinity before it ever did.
    static func behind(_ feed: SQLiteChangeFeed) -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        return feed.caughtUpAt.map { now > $0 ? Double(now - $0) / 1e9 : 0 } ?? .infinity
    }

    @Test func aFeedIsCaughtUpFromTheMomentItListens() throws {
        let store = try SQLiteLiveStore(path: SQLiteStoreTests.temporaryPath(), synchronous: false)
        let feed = store.makeChangeFeed()
        feed.listen { _ in }
        // Everything in the log when it started listening is history, not news: there is nothing it has not heard.
        #expect(feed.caughtUpAt != nil, "a server that just started says its bus is current")
    }

    /// A replica that stood still past the retention (paused, swapped out) while the only changes it missed were
    /// pruned finds no row after its cursor: it must still resync, or a deleted person's token stays signed in there.
    @Test func aListenerWhoseMissedChangesWereAllPrunedIsToldToResync() throws {
        let path = SQLiteStoreTests.temporaryPath()
        let store = try SQLiteLiveStore(path: path, synchronous: false)
        #expect(try store.addPerson(StoreConformance.person("ann"), settings: .newPerson))
        #expect(try store.recordFix(StoreConformance.fix(40.7, -73.9, at: 0), of: PersonID("ann")), "a logged move: the cursor is past 0")
        let feed = store.makeChangeFeed()
        let resyncs = Counter()
        feed.listen { if case .resync = $0 { resyncs.add() } }
        // Another process's change, written and pruned in one transaction: no poll can have read it.
        let other = try SQLiteDatabase(path: path)
        try other.execute("BEGIN IMMEDIATE; INSERT INTO changes (origin, message, at_ms) VALUES ('elsewhere', 'x', 0); DELETE FROM changes; COMMIT")
        let until = Date().addingTimeInterval(2)
        while resyncs.value == 0 && Date() < until { Thread.sleep(forTimeInterval: SQLiteChangeFeed.pollInterval) }
        #expect(resyncs.value == 1, "told to resync once, within 2 s (40 polls)")
    }

    /// Another process writing without pause commits rows between a poll's reads: each must be heard as itself,
    /// none taken for a pruned row (a resync, which used to skip it).
    @Test func rowsCommittedWhileAPollReadsAreHeardAndNeverTakenForPruned() throws {
        let path = SQLiteStoreTests.temporaryPath()
        let store = try SQLiteLiveStore(path: path, synchronous: false)
        #expect(try store.addPerson(StoreConformance.person("ann"), settings: .newPerson))
        #expect(try store.recordFix(StoreConformance.fix(40.7, -73.9, at: 0), of: PersonID("ann")), "a logged move: the cursor is past 0")
        let feed = store.makeChangeFeed()
        let (resyncs, heard) = (Counter(), Counter())
        feed.listen { message in
            if case .resync = message { resyncs.add() } else { heard.add() }
        }
        let other = try SQLiteDatabase(path: path)
        try other.execute("PRAGMA synchronous = OFF")
        // One row about every 0.15 ms for 2 s: the feed catches up at each of its 40 polls, so each poll's reads
        // have rows landing between them.
        var written = 0
        let writing = Date().addingTimeInterval(2)
        while Date() < writing {
            try other.execute("INSERT INTO changes (origin, message, at_ms) VALUES ('elsewhere', 'p|ann', 0)")
            written += 1
            usleep(100)
        }
        let until = Date().addingTimeInterval(5)
        while heard.value < written && Date() < until { Thread.sleep(forTimeInterval: SQLiteChangeFeed.pollInterval) }
        #expect(heard.value == written, "every row written is heard once, within 5 s")
        #expect(resyncs.value == 0, "no row was taken for a pruned one")
    }

    /// Counts what a feed's thread hears.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }

    @Test func aPruneWaitingForTheWriteLockHoldsNothingHeard() throws {
        let path = SQLiteStoreTests.temporaryPath()
        let store = try SQLiteLiveStore(path: path, synchronous: false)
        let feed = SQLiteChangeFeed(store: store, pruneEvery: SQLiteChangeFeed.pollInterval)
        feed.listen { _ in }
        // Another connection holds the write lock for `held` seconds, as a slow disk holds a commit: every write of
        // the store, the log's prune among them, waits for it; reading the log does not.
        let held = 2 * LiveView.stalenessBound
        let holder = try SQLiteDatabase(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        var worst = 0.0
        let until = Date().addingTimeInterval(held)
        while Date() < until {
            worst = max(worst, Self.behind(feed))
            Thread.sleep(forTimeInterval: SQLiteChangeFeed.pollInterval)
        }
        try holder.execute("ROLLBACK")
        #expect(worst < LiveView.stalenessBound, "the feed heard all of the log within \(LiveView.stalenessBound) s throughout a \(held) s wait for the write lock: it fell \(worst) s behind")
    }
}
