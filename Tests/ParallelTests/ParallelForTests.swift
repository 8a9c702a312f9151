import Foundation
import Parallel
import Testing

/// The parallel loop against the sequential one it stands for: every index once, results in order, the first
/// error thrown and the work after it not started, ranges that tile the whole.
@Suite("One parallel for-loop")
struct ParallelForTests {
    /// Counts how often each index ran, from any thread.
    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var runs: [Int: Int] = [:]
        private var running = 0
        private(set) var mostAtOnce = 0

        func enter(_ index: Int) {
            lock.withLock {
                runs[index, default: 0] += 1
                running += 1
                mostAtOnce = max(mostAtOnce, running)
            }
        }

        func leave() { lock.withLock { running -= 1 } }
        var counts: [Int: Int] { lock.withLock { runs } }
    }

    @Test(arguments: [0, 1, 7, 1_000])
    func mapGivesTheSequentialResultsInOrder(count: Int) {
        let body: @Sendable (Int) -> String = { "\($0 * $0 - 3)" }
        #expect(ParallelFor.map(count, body) == (0..<count).map(body))
    }

    @Test func mapOfItemsKeepsEachErrorAtItsItem() {
        struct Odd: Error { let value: Int }
        let results = ParallelFor.map(Array(0..<50)) { item throws -> Int in
            if item % 2 == 1 { throw Odd(value: item) }
            return item * 10
        }
        for (item, result) in results.enumerated() {
            switch result {
            case .success(let value): #expect(item % 2 == 0 && value == item * 10)
            case .failure(let error): #expect((error as? Odd)?.value == item)
            }
        }
    }

    @Test func forEachRunsEveryIndexOnceOnAtMostItsWorkers() throws {
        let tally = Tally()
        try ParallelFor.forEach(200, workers: 2) { index in
            tally.enter(index)
            tally.leave()
        }
        #expect(tally.counts == Dictionary(uniqueKeysWithValues: (0..<200).map { ($0, 1) }))
        #expect(tally.mostAtOnce <= 2)
    }

    @Test func forEachThrowsTheFirstErrorAndStartsNothingAfterIt() {
        struct Stop: Error {}
        let tally = Tally()
        #expect(throws: Stop.self) {
            try ParallelFor.forEach(1_000, workers: 1) { index in
                tally.enter(index)
                tally.leave()
                if index == 10 { throw Stop() }
            }
        }
        #expect(tally.counts.keys.sorted() == Array(0...10), "one worker takes indices in order and stops at the error")
    }

    @Test(arguments: [(0, 1), (5, 100), (100_000, 1_000), (99_999, 7)])
    func rangesCoverEveryIndexOnce(count: Int, minimumPerPart: Int) {
        let tally = Tally()
        ParallelFor.ranges(count: count, minimumPerPart: minimumPerPart) { range in
            for index in range { tally.enter(index) }
        }
        #expect(tally.counts == Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, 1) }))
    }
}
