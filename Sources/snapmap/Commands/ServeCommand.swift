import Foundation
import MapEngine
import MapServer

/// `snapmap serve`: the HTTP API and the web viewer.
let serveCommand = Command(
    name: "serve",
    summary: "serve frames, tiles, layouts, taps, zooms, route frames and the web viewer over HTTP",
    usage: "serve [--host 127.0.0.1] [--port 8080] [--threads N]",
    options: [
        .value("host", "ADDR", "the IPv4 address to listen on (default 127.0.0.1)"),
        .value("port", "PORT", "the port, 0 for any free one (default 8080)"),
        .value("threads", "N", "worker threads, 1…64 (default: one per core)"),
        .flag("stop-on-stdin-eof", "stop when standard input closes (for a supervising process, such as the tests)"),
        DataLocator.option,
    ]
) { options in
    let host = options.value("host") ?? "127.0.0.1"
    let port = try options.integer("port", in: 0...65535) ?? 8080
    let threads = try options.integer("threads", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
    let engine = try MapEngine(paths: DataPaths(dataDirectory: DataLocator.directory(options)))
    let api = MapAPI(engine: engine)
    let server = try HTTPServer(host: host, port: UInt16(port), threads: threads) { request in
        let started = ContinuousClock.now
        let response = api.handle(request)
        let milliseconds = (ContinuousClock.now - started) / .milliseconds(1)
        FileHandle.standardError.write(Data(String(format: "%@ %@ %d %.1fms\n", request.method, request.path, response.status, milliseconds).utf8))
        return response
    }
    FileHandle.standardOutput.write(Data("listening on http://\(host):\(server.port) with \(threads) threads\n".utf8))
    ServeLoop.run(until: [SIGINT, SIGTERM], orStdinEOF: options.flag("stop-on-stdin-eof")) { server.stop() }
    return "stopped"
}

/// Keeps the process serving until a signal arrives, then runs `stop`.
enum ServeLoop {
    static func run(until signals: [Int32], orStdinEOF watchStdin: Bool, stop: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        if watchStdin {
            Thread.detachNewThread {
                while !FileHandle.standardInput.availableData.isEmpty {}
                done.signal()
            }
        }
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { done.signal() }
            source.resume()
            sources.append(source)
        }
        done.wait()
        stop()
        sources.forEach { $0.cancel() }
    }
}
