import Foundation
import ServerTestSupport

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
        let result = try TestProcess.run(program: program, arguments, input: Data(input.utf8))
        guard result.succeeded else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(program) exited \(result.status)"])
        }
        return result.output
    }

    /// The numbers in a line of tool output.
    static func numbers(_ text: String) -> [Double] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Double($0) }
    }
}
