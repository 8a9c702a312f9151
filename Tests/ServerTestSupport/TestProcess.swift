import Foundation

/// A finished process: how it ended and everything it printed.
public struct ProcessResult: Sendable {
    public let status: Int32
    /// Whether it exited (`status` is its exit code) or was killed by a signal (`status` is the signal).
    public let exited: Bool
    public let stdout: Data
    public let stderr: Data

    public var output: String { String(decoding: stdout, as: UTF8.self) }
    public var errorOutput: String { String(decoding: stderr, as: UTF8.self) }
    /// Exited with status 0.
    public var succeeded: Bool { exited && status == 0 }
}

/// Running programs from tests: one way, which feeds standard input and drains both outputs at once, so neither
/// side ever waits on a full pipe.
public enum TestProcess {
    private static let launching = NSLock()

    /// Starts `process` while no other process of this test run is being started. Foundation lists the descriptors
    /// a child must close before it spawns it: a socket another thread made meanwhile (the one by which Foundation
    /// learns that that thread's child ended) went to this child too, and the other child's end then went unnoticed
    /// for as long as this one ran (a Redis node's shell: a whole run hung in `waitUntilExit`). Every test spawn and
    /// every `LocalRedisCluster` of the tests goes through here.
    @Sendable public static func launch(_ process: Process) throws {
        try launching.withLock { try process.run() }
    }

    /// How long the outputs of a program that ended are read for at most.
    static let drainBound: DispatchTimeInterval = .seconds(5)
    /// How long a program may run before it is killed (SIGKILL) and reported: a hung child fails its test, not the run.
    public static let runBound: DispatchTimeInterval = .seconds(300)

    /// Runs `executable` with `arguments`, `input` on its standard input, `environment` over this process's (less
    /// the variables in `unset`), in `directory`; waits for it to end, `bound` at most (then it is killed).
    public static func run(_ executable: URL, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
                           unset: Set<String> = [], directory: URL? = nil, bound: DispatchTimeInterval = runBound) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.filter { !unset.contains($0.key) }
        if let directory { process.currentDirectoryURL = directory }
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try launch(process)
        // Threads of their own, not the shared dispatch pool: a caller blocked on the pool (one of its threads
        // waiting here) would otherwise wait for work queued behind itself, and a full suite once hung so.
        let group = DispatchGroup()
        let (output, errors) = (Drain(stdout.fileHandleForReading), Drain(stderr.fileHandleForReading))
        for drain in [output, errors] {
            group.enter()
            Thread.detachNewThread {
                drain.read()
                group.leave()
            }
        }
        if let input {
            group.enter()
            Thread.detachNewThread {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
                group.leave()
            }
        }
        if ended.wait(timeout: .now() + bound) == .timedOut {
            FileHandle.standardError.write(Data("TestProcess: \(executable.path) \(arguments.joined(separator: " ").prefix(200)) ran past \(bound); killed\n".utf8))
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        // A process another test spawns at the same moment may inherit a pipe's writing end and hold it open for
        // minutes (a Redis node's shell did, and a clean-clone run hung here): what the program wrote is read within
        // moments of its exit, so the end of the pipes is waited for a bounded time only.
        _ = group.wait(timeout: .now() + Self.drainBound)
        return ProcessResult(status: process.terminationStatus, exited: process.terminationReason == .exit, stdout: output.data, stderr: errors.data)
    }

    /// Starts `executable` with `arguments`, its input and outputs on /dev/null, and returns without waiting.
    public static func start(_ executable: URL, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try launch(process)
        return process
    }

    /// Runs a program found on `PATH` (as `env` finds it).
    public static func run(program: String, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
                           directory: URL? = nil, bound: DispatchTimeInterval = runBound) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [program] + arguments, input: input, environment: environment, directory: directory, bound: bound)
    }
}

/// What the kernel counts of a process (Linux `/proc`).
public enum ProcessTimes {
    /// The processor time `pid` has used so far, user and system, in seconds.
    public static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The fields after the command's name in parentheses, which may hold spaces: utime and stime are the 12th and 13th.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// Everything a pipe gives until it closes, read on another thread.
private final class Drain: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private var received = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// What was read so far.
    var data: Data { lock.withLock { received } }

    /// Reads until the end of the pipe, keeping each piece as it comes.
    func read() {
        while case let piece = handle.availableData, !piece.isEmpty {
            lock.withLock { received.append(piece) }
        }
    }
}
