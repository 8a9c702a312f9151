import Foundation

/// A benchmark's size set from the environment (to run it smaller on a loaded machine, or larger).
enum BenchmarkSetting {
    /// The whole number in the environment variable `name`, or `value` when it is unset; one outside `range` (or
    /// not a number) is an error naming the variable and the range.
    static func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = ProcessInfo.processInfo.environment[name] else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw BenchmarkFailure(message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text.prefix(20))\"")
        }
        return number
    }
}
