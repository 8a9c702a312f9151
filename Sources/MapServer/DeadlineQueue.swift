import Foundation

/// Keys due at instants, earliest first: a binary heap where rescheduling a key leaves its old entry behind to be
/// skipped (each key has one live instant, the last one set).
struct DeadlineQueue<Key: Hashable> {
    private var heap: [(at: Date, key: Key)] = []
    private var current: [Key: Date] = [:]

    /// The earliest live instant, if any.
    mutating func earliest() -> Date? {
        dropStale()
        return heap.first?.at
    }

    /// Sets (or with nil clears) the instant `key` is due.
    mutating func set(_ key: Key, at instant: Date?) {
        guard let instant else {
            current[key] = nil
            return
        }
        guard current[key] != instant else { return }
        current[key] = instant
        heap.append((instant, key))
        siftUp(heap.count - 1)
    }

    /// Removes and returns the keys due at or before `now`.
    mutating func popDue(at now: Date) -> [Key] {
        var due: [Key] = []
        while true {
            dropStale()
            guard let first = heap.first, first.at <= now else { return due }
            current[first.key] = nil
            due.append(first.key)
            removeFirst()
        }
    }

    private mutating func dropStale() {
        while let first = heap.first, current[first.key] != first.at { removeFirst() }
    }

    private mutating func removeFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var index = 0
        while true {
            let left = 2 * index + 1, right = left + 1
            var smallest = index
            if left < heap.count, heap[left].at < heap[smallest].at { smallest = left }
            if right < heap.count, heap[right].at < heap[smallest].at { smallest = right }
            guard smallest != index else { return }
            heap.swapAt(index, smallest)
            index = smallest
        }
    }

    private mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0, heap[(index - 1) / 2].at > heap[index].at {
            heap.swapAt(index, (index - 1) / 2)
            index = (index - 1) / 2
        }
    }
}
