import Foundation

/// A benchmark's steps, each run on its own: a step that fails says why on standard error at once and on every
/// line that needs it, and the steps after it still run; `report` then throws (with every line) if any failed.
final class BenchmarkSteps {
    private var failed: [String] = []

    /// Runs `step`; its value, or the error it threw (named after the step).
    func run<T>(_ name: String, _ step: () throws -> T) -> Result<T, StepFailure> {
        do {
            return .success(try step())
        } catch {
            let failure = StepFailure(step: name, reason: "\(error)")
            failed.append(name)
            FileHandle.standardError.write(Data("\(failure)\n".utf8))
            return .failure(failure)
        }
    }

    /// The line `make` writes, or, when a step it needs failed, the line's title and that step's error.
    static func line(_ title: String, _ make: () throws -> String) -> String {
        do {
            return try make()
        } catch {
            return "\(title): failed: \(error)"
        }
    }

    /// The lines, joined; thrown inside a `PartialBenchmark` when a step failed.
    func report(_ lines: [String]) throws -> String {
        let text = lines.joined(separator: "\n")
        guard failed.isEmpty else { throw PartialBenchmark(text: text, failedSteps: failed) }
        return text
    }
}

/// Why one step of a benchmark did not measure.
struct StepFailure: Error, CustomStringConvertible {
    let step: String
    let reason: String
    var description: String { "step '\(step)' failed: \(reason)" }
}

/// A benchmark whose lines were written but some of whose steps failed (the lines say which, and why).
struct PartialBenchmark: Error, CustomStringConvertible {
    let text: String
    let failedSteps: [String]
    var description: String { "steps that failed: \(failedSteps.joined(separator: ", "))" }
}
