/// A binary min-heap of (key, node) pairs for Dijkstra-style searches. A node may be pushed more than once;
/// searches skip the entries whose key is no longer the node's best (lazy deletion).
struct MinHeap {
    private var keys: [Double] = []
    private var nodes: [Int32] = []

    var isEmpty: Bool { keys.isEmpty }
    var minKey: Double { keys.first ?? .infinity }

    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
    }

    mutating func push(_ key: Double, _ node: Int32) {
        keys.append(key)
        nodes.append(node)
        var child = keys.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard keys[child] < keys[parent] else { break }
            keys.swapAt(child, parent)
            nodes.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (key: Double, node: Int32)? {
        guard let top = keys.first else { return nil }
        let node = nodes[0]
        let lastKey = keys.removeLast()
        let lastNode = nodes.removeLast()
        if !keys.isEmpty {
            keys[0] = lastKey
            nodes[0] = lastNode
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < keys.count else { break }
                let right = left + 1
                let child = right < keys.count && keys[right] < keys[left] ? right : left
                guard keys[child] < keys[parent] else { break }
                keys.swapAt(child, parent)
                nodes.swapAt(child, parent)
                parent = child
            }
        }
        return (top, node)
    }
}
