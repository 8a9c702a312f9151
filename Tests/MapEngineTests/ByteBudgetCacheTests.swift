import GeoCore
import MapEngine
import Testing

/// The least-recently-used cache against a brute-force model (an array in order of use) over random stores, lookups,
/// removals and clears: the same values kept, the same evicted, the same bytes.
@Suite("Byte budget cache")
struct ByteBudgetCacheTests {
    @Test(arguments: [28, 2807, 90210])
    func randomOperationsKeepWhatTheModelKeeps(seed: UInt64) {
        let budget = 1_000
        let cache = ByteBudgetCache<Int, Int>(budget: budget)
        var model: [(key: Int, value: Int, cost: Int)] = []  // least recently used first
        var random = SplitMix64(seed: seed)
        for step in 0..<3_000 {
            let key = Int(random.next() % 24)
            switch random.next() % 10 {
            case 0..<4:
                let (value, cost) = (step, Int(random.next() % 300) + 1)
                cache.store(value, for: key, cost: cost)
                model.removeAll { $0.key == key }
                if cost <= budget / 4 { model.append((key, value, cost)) }
                while model.reduce(0, { $0 + $1.cost }) > budget { model.removeFirst() }
            case 4..<8:
                let expected = model.firstIndex { $0.key == key }.map { model.remove(at: $0) }
                if let expected { model.append(expected) }
                #expect(cache.value(key) == expected?.value, "step \(step): key \(key)")
            case 8:
                cache.removeValue(for: key)
                model.removeAll { $0.key == key }
            default:
                if random.next() % 20 == 0 {
                    cache.removeAll()
                    model = []
                }
            }
            #expect(cache.bytes == model.reduce(0) { $0 + $1.cost } && cache.count == model.count, "step \(step)")
        }
    }
}
