import Foundation

/// Runs an anchor program (a Python reference renderer) and returns what it printed.
enum BenchmarkProcess {
    /// Debian's Python, which sees the python3-* packages the anchors need (a pyenv python3 on PATH does not).
    static let debianPython = "/usr/bin/python3"

    /// Runs `program` and returns what it printed (on standard error instead, with `standardError`). Otherwise what
    /// it prints on standard error is passed on, and the end of it names a failure (a step that gives up says why).
    static func run(_ program: String, _ arguments: [String], standardError: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe()
        // A file, not a second pipe: a program filling one pipe while this reads the other would never end.
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-bench-stderr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: errors) }
        if standardError {
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = output
        } else {
            process.standardOutput = output
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errors)
        }
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let said = (try? Data(contentsOf: errors)) ?? Data()
        FileHandle.standardError.write(said)
        guard process.terminationStatus == 0 else {
            let reason = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last.map { ": \($0.prefix(300))" } ?? ""
            throw BenchmarkFailure(message: "\(program) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)\(reason)")
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
