import Foundation
import MapEngine
import MapScene

/// Finds the project's `Data/` directory: `--data`, then `$SNAPMAP_DATA`, then `./Data`, then the
/// checkout the executable was built in (`.build/<config>/snapmap` → `Data/`).
enum DataLocator {
    /// The engine over the data directory the options name: what every map command starts from.
    static func engine(_ options: ParsedOptions) throws -> MapEngine {
        try MapEngine(paths: DataPaths(dataDirectory: directory(options)))
    }

    static func directory(_ options: ParsedOptions) throws -> URL {
        if let explicit = options.value("data") { return try existing(URL(fileURLWithPath: explicit), source: "--data") }
        if let fromEnvironment = ProcessInfo.processInfo.environment["SNAPMAP_DATA"] {
            return try existing(URL(fileURLWithPath: fromEnvironment), source: "SNAPMAP_DATA")
        }
        let fileManager = FileManager.default
        let local = URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("Data")
        if fileManager.fileExists(atPath: local.appendingPathComponent("williamsburg").path) { return local }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let checkout = executable.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Data")
        if fileManager.fileExists(atPath: checkout.appendingPathComponent("williamsburg").path) { return checkout }
        throw DataNotFound(message: "no Data directory found in \(local.path) or \(checkout.path); pass --data DIR")
    }

    private static func existing(_ url: URL, source: String) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DataNotFound(message: "\(source): \(url.path) is not a directory")
        }
        return url
    }
}

struct DataNotFound: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
