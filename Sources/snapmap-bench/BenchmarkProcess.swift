import Foundation

/// Runs an anchor program (a Python reference renderer) and returns what it printed.
enum BenchmarkProcess {
    /// Debian's Python, which sees the python3-* packages the anchors need (a pyenv python3 on PATH does not).
    static let debianPython = "/usr/bin/python3"

    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure(message: "\(program) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
