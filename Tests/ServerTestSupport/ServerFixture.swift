import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `snapmap serve --demo` process on a free loopback port; it stops when the test process ends (its
/// standard input closes). The server tests share `shared`; a test that changes what Sam sees starts its own.
public final class ServerFixture: Sendable {
    public static let shared = Result { try ServerFixture() }

    public let base: URL
    /// The scene viewer's (Sam's) token, from `serve --demo`.
    public let token: String
    public let executable: URL
    public let root: URL
    public let process: Process
    /// The options that name the server's live store (`--db PATH` or `--store URL`), for the operator's commands.
    private let storeOptions: [String]
    /// The SQLite file the server serves (nil on Redis Cluster).
    public var databasePath: String? {
        guard storeOptions.first == "--db" else { return nil }
        return storeOptions.last
    }
    private let input: Pipe
    private let output: Pipe
    /// Signalled when the server process ends.
    private let ended = DispatchSemaphore(value: 0)
    /// How long a server may take to print its URL, and to stop once its input closes (its own grace is 10 s).
    static let startBound: DispatchTimeInterval = .seconds(180)
    static let stopBound: DispatchTimeInterval = .seconds(60)
    /// The file the server's standard error went to when the caller gave no log: removed when the server stops.
    private let ownErrors: URL?

    /// A server on the SQLite store at `database` (default: a new one), with more `serve` options if given; its
    /// standard error (the access log) goes to `log` when given.
    public convenience init(database: String? = nil, serveOptions: [String] = [], log: URL? = nil, executable: URL = Snapmap.executable) throws {
        let path = database ?? FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-serve-\(UUID().uuidString)/live.db").path
        try self.init(storeOptions: ["--db", path], serveOptions: serveOptions, log: log, executable: executable)
    }

    /// A server on the Redis Cluster at `storeURL` (a stateless replica).
    public convenience init(storeURL: String, serveOptions: [String] = []) throws {
        try self.init(storeOptions: ["--store", storeURL], serveOptions: serveOptions)
    }

    private init(storeOptions: [String], serveOptions: [String] = [], log: URL? = nil, executable: URL = Snapmap.executable) throws {
        let root = Snapmap.packageRoot
        process = Process()
        process.executableURL = executable
        self.storeOptions = storeOptions
        self.executable = executable
        self.root = root
        process.arguments = ["serve", "--port", "0", "--demo", "--stop-on-stdin-eof"] + storeOptions + serveOptions
        process.currentDirectoryURL = root
        input = Pipe()
        output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        // Standard error goes to `log`, or to a file of its own that a failed start quotes.
        let errors = log ?? FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-serve-\(UUID().uuidString).err")
        ownErrors = log == nil ? errors : nil
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "could not create \(errors.path)"])
        }
        process.standardError = FileHandle(forWritingAtPath: errors.path)
        process.terminationHandler = { [ended] _ in ended.signal() }
        try TestProcess.launch(process)
        // A server that prints no URL within the bound is killed, which ends the read below: its test fails, not the run.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.startBound, execute: watchdog)
        var line = ""
        while !line.contains("#token=") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        watchdog.cancel()
        guard let range = line.range(of: "http://"), let url = URL(string: String(line[range.lowerBound...].prefix { !$0.isWhitespace })),
              let tokenRange = line.range(of: "#token=") else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let said = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "").suffix(2000)
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "serve printed \(line), and on standard error: \(said)"])
        }
        base = url
        token = String(line[tokenRange.upperBound...].prefix { !$0.isWhitespace })
    }

    /// Stops the server (its standard input closes, and SIGTERM: a process spawned meanwhile may hold the pipe's
    /// writing end) and waits for it, for `stopBound` at most: then it is killed.
    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        if ended.wait(timeout: .now() + Self.stopBound) == .timedOut {
            FileHandle.standardError.write(Data("ServerFixture: the server at \(base) did not stop within \(Self.stopBound) of its input closing; killed\n".utf8))
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        if let ownErrors { try? FileManager.default.removeItem(at: ownErrors) }
    }

    /// Closes the reading end of the server's standard output, as a log reader that went away does: what the server
    /// writes there from now on fails with EPIPE.
    public func stopReadingOutput() throws {
        try output.fileHandleForReading.close()
    }

    /// Runs an operator's command (`users`, `friends`, `sharing`, …) on the server's store; returns its output.
    @discardableResult
    public func operate(_ arguments: String...) throws -> String {
        let result = try TestProcess.run(executable, arguments + storeOptions, directory: root)
        guard result.succeeded else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(arguments) failed"]) }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A request with a method and headers; returns status, headers and body.
    /// `/v1/me/` paths carry Sam's token unless `token` says otherwise ("" for none).
    public func fetch(_ path: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
               token: String? = nil) async throws -> (Int, [String: String], Data) {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        request.httpBody = body
        let bearer = token ?? (path.hasPrefix("/v1/me/") ? self.token : "")
        if !bearer.isEmpty { request.setValue("Bearer " + bearer, forHTTPHeaderField: "Authorization") }
        // A connection each: a kept-alive one that sat idle for the server's 15 s could be closed by the server just as
        // it is reused, and the request then gets an empty reply (seen once in a full run, on a PUT).
        request.setValue("close", forHTTPHeaderField: "Connection")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields[String(describing: key).lowercased()] = String(describing: value) }
        return (http.statusCode, fields, data)
    }
}
