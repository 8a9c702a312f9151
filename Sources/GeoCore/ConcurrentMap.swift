import Foundation

/// Work spread over the cores: items mapped to results in order, or indices taken in order by a few workers.
public enum ConcurrentMap {
    private final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [T?]

        init(count: Int) {
            values = Array(repeating: nil, count: count)
        }

        func set(_ value: T, at index: Int) {
            lock.lock()
            values[index] = value
            lock.unlock()
        }

        var all: [T] { values.map { $0! } }
    }

    /// Work indices handed out in order to a few workers, until the first error.
    private final class Queue: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private let count: Int
        private(set) var error: (any Error)?

        init(count: Int) {
            self.count = count
        }

        func take() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard error == nil, next < count else { return nil }
            next += 1
            return next - 1
        }

        func fail(_ error: any Error) {
            lock.lock()
            self.error = self.error ?? error
            lock.unlock()
        }
    }

    /// Runs `body` for each of `0..<count`, taken in order by at most `workers` threads at once (and no more than
    /// the cores); the first error stops the work and is thrown.
    public static func forEach(_ count: Int, workers: Int, _ body: @Sendable (Int) throws -> Void) throws {
        let queue = Queue(count: count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count, ProcessInfo.processInfo.activeProcessorCount))) { _ in
            while let index = queue.take() {
                do { try body(index) } catch { queue.fail(error) }
            }
        }
        if let error = queue.error { throw error }
    }

    /// `body` applied to every item on every core, the results (or errors) in the items' order.
    public static func map<Item: Sendable, Output>(_ items: [Item], _ body: @Sendable (Item) throws -> Output) -> [Result<Output, any Error>] {
        let slots = Slots<Result<Output, any Error>>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            slots.set(Result { try body(items[index]) }, at: index)
        }
        return slots.all
    }
}
