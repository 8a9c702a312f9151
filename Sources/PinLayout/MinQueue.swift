/// Group indices waiting to be looked at, the lowest first, each at most once: a binary min-heap with a flag
/// per index, for indices below `count`. It starts with `initial`, in increasing order (a sorted array is already a heap).
struct MinQueue {
    private var heap: [Int]
    private var queued: [Bool]

    init(count: Int, initial: [Int]) {
        heap = initial
        queued = [Bool](repeating: false, count: count)
        for index in initial { queued[index] = true }
    }

    mutating func push(_ index: Int) {
        guard !queued[index] else { return }
        queued[index] = true
        heap.append(index)
        var child = heap.count - 1
        while child > 0, heap[(child - 1) / 2] > heap[child] {
            heap.swapAt(child, (child - 1) / 2)
            child = (child - 1) / 2
        }
    }

    mutating func pop() -> Int? {
        guard let lowest = heap.first else { return nil }
        queued[lowest] = false
        let last = heap.removeLast()
        guard !heap.isEmpty else { return lowest }
        heap[0] = last
        var parent = 0
        while true {
            let (left, right) = (2 * parent + 1, 2 * parent + 2)
            var smallest = parent
            if left < heap.count, heap[left] < heap[smallest] { smallest = left }
            if right < heap.count, heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { return lowest }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
