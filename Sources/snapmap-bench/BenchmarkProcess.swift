import Foundation

/// Runs an anchor program (a Python reference renderer) and returns what it printed.
enum BenchmarkProcess {
    /// Debian's Python, which sees the python3-* packages the anchors need (a pyenv python3 on PATH does not).
    static let debianPython = "/usr/bin/python3"

    /// Runs `program` and returns what it printed (on standard error instead, with `standardError`).
    static func run(_ program: String, _ arguments: [String], standardError: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe()
        if standardError {
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = output
        } else {
            process.standardOutput = output
        }
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

/// Starts a whole process with posix_spawn (no pipes or run loop in between) and waits for it, so timing a
/// process measures the process, not the launcher.
enum ProcessTimer {
    static func run(_ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else {
            throw BenchmarkFailure(message: "cannot start \(arguments[0])")
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else { throw BenchmarkFailure(message: "\(arguments.joined(separator: " ")) failed with status \(status)") }
    }
}
