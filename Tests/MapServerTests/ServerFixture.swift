import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `snapmap serve` process on a free loopback port for the whole suite; it stops when the test process
/// ends (its standard input closes).
final class ServerFixture: Sendable {
    static let shared = Result { try ServerFixture() }

    let base: URL
    private let process: Process
    private let input: Pipe

    private init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var executable = products.appendingPathComponent("snapmap")
        if !FileManager.default.isExecutableFile(atPath: executable.path) { executable = root.appendingPathComponent(".build/debug/snapmap") }
        process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", "0", "--stop-on-stdin-eof"]
        process.currentDirectoryURL = root
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let range = line.range(of: "http://"), let url = URL(string: String(line[range.lowerBound...].prefix { !$0.isWhitespace })) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "serve printed \(line)"])
        }
        base = url
    }

    /// A request with a method and headers; returns status, headers and body.
    func fetch(_ path: String, method: String = "GET", headers: [String: String] = [:]) async throws -> (Int, [String: String], Data) {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields[String(describing: key).lowercased()] = String(describing: value) }
        return (http.statusCode, fields, data)
    }
}
