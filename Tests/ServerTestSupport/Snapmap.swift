import Foundation

/// The checkout and the `snapmap` executable the tests run, in one place.
public enum Snapmap {
    /// The package's root directory (where `Package.swift` and `Data/` are).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `snapmap` built beside the test bundle, else the debug build's.
    public static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("snapmap")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appendingPathComponent(".build/debug/snapmap")
    }

    /// The release build's `snapmap` (for suites run at full size, where a debug build would take hours), when built.
    public static var releaseExecutable: URL? {
        let release = packageRoot.appendingPathComponent(".build/release/snapmap")
        return FileManager.default.isExecutableFile(atPath: release.path) ? release : nil
    }

    /// Runs `snapmap` with `arguments` in the package root, in a fresh process.
    public static func run(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        try TestProcess.run(executable, arguments, input: input, environment: environment, directory: packageRoot)
    }
}
