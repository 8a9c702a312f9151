import Foundation

/// The one parallel for-loop: indices run on every core, the forms the project needs built on `each` (results in
/// index order, a few workers taking indices in order, one contiguous range a core). Bodies run concurrently and
/// must touch only what belongs to their index (or range).
public enum ParallelFor {
    /// Runs `body` once for every index of `0..<count`, on every core. Not checked for `Sendable` (band work
    /// reads canvases): `body` must read only what nobody changes meanwhile.
    public static func each(_ count: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            let shared = Unchecked(body: body)
            DispatchQueue.concurrentPerform(iterations: count) { shared.body($0) }
        }
    }

    /// `body`'s results for `0..<count`, made on every core, in index order (`body` as for `each`).
    public static func map<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            // The results were copied out: the slots still own theirs until deinitialized.
            results.deinitialize()
            results.deallocate()
        }
        let slots = Slots(results: results)
        each(count) { index in slots.results[index] = body(index) }
        return results.map { $0! }
    }

    /// `body` applied to every item on every core, the results (or errors) in the items' order.
    public static func map<Item: Sendable, Output>(_ items: [Item], _ body: @Sendable (Item) throws -> Output) -> [Result<Output, any Error>] {
        map(items.count) { index in Result { try body(items[index]) } }
    }

    /// Runs `body` for each of `0..<count`, taken in order by at most `workers` threads at once (and no more than
    /// the cores); the first error stops the work and is thrown.
    public static func forEach(_ count: Int, workers: Int, _ body: @Sendable (Int) throws -> Void) throws {
        let queue = Queue(count: count)
        each(max(1, min(workers, count, ProcessInfo.processInfo.activeProcessorCount))) { _ in
            while let index = queue.take() {
                do { try body(index) } catch { queue.fail(error) }
            }
        }
        if let error = queue.error { throw error }
    }

    /// Splits `0..<count` into one contiguous range per core (each at least `minimumPerPart` long) and runs `body`
    /// on each concurrently; counts too small to split run inline.
    public static func ranges(count: Int, minimumPerPart: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let parts = max(1, min(cores, count / max(minimumPerPart, 1)))
        guard parts > 1 else {
            body(0..<count)
            return
        }
        let partLength = (count + parts - 1) / parts
        each(parts) { part in body((part * partLength)..<min(count, (part + 1) * partLength)) }
    }

    /// A body the caller vouches for (see `each`).
    private struct Unchecked: @unchecked Sendable {
        let body: (Int) -> Void
    }

    /// Each index writes only its own slot.
    private struct Slots<T>: @unchecked Sendable {
        let results: UnsafeMutableBufferPointer<T?>
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
}
