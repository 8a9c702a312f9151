import Foundation

/// Paths and tools the tests use: the checkout, `../shared`, and PROJ's own command-line programs.
enum TestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` beside the checkout, or `$SNAPMAP_SHARED`.
    static var sharedDirectory: URL {
        if let explicit = ProcessInfo.processInfo.environment["SNAPMAP_SHARED"] { return URL(fileURLWithPath: explicit) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// Runs a program found on PATH with text on standard input and returns its standard output.
    static func run(_ program: String, _ arguments: [String], input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(program) exited \(process.terminationStatus)"])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The numbers in a line of tool output.
    static func numbers(_ text: String) -> [Double] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Double($0) }
    }
}
