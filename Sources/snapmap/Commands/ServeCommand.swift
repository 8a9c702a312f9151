import Foundation
import LiveMap
import MapEngine
import MapScene
import MapServer

/// `snapmap serve`: the HTTP API and the web viewer.
let serveCommand = Command(
    name: "serve",
    summary: "serve the live map (sign-in, locations, friends, frames, layouts, events), tiles and the web viewer over HTTP",
    usage: "serve [--host 127.0.0.1] [--port 8080] [--allowed-hosts NAMES] [--threads N] [--db PATH] [--partition K/P] [--clock ISO8601|scene] [--demo]",
    options: [
        .value("host", "ADDR", "the IPv4 or IPv6 address to listen on (default 127.0.0.1; off loopback --allowed-hosts is needed)"),
        .value("port", "PORT", "the port, 0 for any free one (default 8080); a port another server listens on is an error"),
        .flag("reuse-port", "share the port with other servers started with this flag (SO_REUSEPORT: the kernel spreads connections over them)"),
        .value("threads", "N", "worker threads, 1…256 (default: one per core)"),
        .value("per-client-connections", "N", "connections one client address may hold, 1…8192 (default 256)"),
        .value("request-timeout", "SECONDS", "time a client has to send a request's headers, and again its body, 1…300 (default 10)"),
        LiveOptions.database,
        LiveOptions.store,
        .value("clock", "ISO8601|scene", "start the server's clock at this time and let it run (default: the real clock; --demo: scene)"),
        .flag("demo", "loopback only: make and seed the store when needed and print a viewer URL signed in as the scene's viewer "
              + "(without it, serve opens only an existing store and never seeds)"),
        .value("allowed-hosts", "NAMES", "comma-separated host names private answers are given under (needed off loopback; "
               + "default on loopback: its address, 127.0.0.1, localhost, [::1])"),
        .flag("any-host", "UNSAFE: give private answers under any Host name, so a page on any name that resolves here (DNS rebinding) reads them"),
        .flag("no-view", "answer every map read from the store, not from the in-memory view of the live state (SQLite; for comparison)"),
        .value("partition", "K/P", "serve the viewers of partition K (0 to P - 1) of P from a view holding only them and their friends; other "
               + "viewers' /v1/me requests are refused with 421 naming their partition (default: one partition, every viewer)"),
        .flag("no-layout-cache", "make every layout answer afresh, not from the answers kept per viewer while nothing reaching them changes (for comparison)"),
        .flag("no-shared-layers", "draw every frame from scratch (saves the shared-layer cache's memory; the bytes are the same)"),
        .flag("stop-on-stdin-eof", "stop when standard input closes (for a supervising process, such as the tests); SIGTERM and SIGINT stop it too"),
        DataLocator.option,
    ]
) { options in
    let stop = ServeLoop(stoppingOn: [SIGINT, SIGTERM], orStdinEOF: options.flag("stop-on-stdin-eof"))
    let host = options.value("host") ?? "127.0.0.1"
    guard HTTPServer.isListenAddress(host) else {
        throw UsageError(description: "--host must be an IPv4 or IPv6 address such as 127.0.0.1 or ::1, got \"\(host.prefix(64))\"")
    }
    let port = try options.integer("port", in: 0...65535) ?? 8080
    let threads = try options.integer("threads", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
    let demo = options.flag("demo")
    guard !demo || ["127.0.0.1", "::1"].contains(host) else { throw UsageError(description: "--demo serves on loopback only (--host 127.0.0.1 or ::1)") }
    let allowedHosts: Set<String>?
    do {
        allowedHosts = try AllowedHosts.resolve(listeningOn: host, names: options.value("allowed-hosts"), anyHost: options.flag("any-host"))
    } catch let refusal as AllowedHosts.Refusal {
        throw UsageError(description: refusal.description)
    }
    let perClient = try options.integer("per-client-connections", in: 1...8192) ?? HTTPServer.defaultPerClientLimit
    let requestTimeout = try options.integer("request-timeout", in: HTTPServer.requestTimeoutRange) ?? HTTPServer.defaultRequestTimeout
    let engine = try DataLocator.engine(options)
    let start = try options.request.clock(scene: engine.scene, default: demo ? engine.scene.capturedAt : Date())
    let offset = start.timeIntervalSinceNow
    let clock: @Sendable () -> Date = { Date().addingTimeInterval(offset) }
    let live = try LiveOptions.service(options, dataDirectory: engine.paths.dataDirectory, scene: engine.scene, clock: clock,
                                       serving: demo ? .demo : .production)
    let api = try MapAPI(engine: engine, live: live, clock: clock, sharesLayers: !options.flag("no-shared-layers"),
                         allowedHosts: allowedHosts, keepsLayouts: !options.flag("no-layout-cache"))
    api.eventHub.startSweeping()
    let pruning = DispatchSource.makeTimerSource(queue: .global())
    pruning.schedule(deadline: .now() + 600, repeating: 600)
    pruning.setEventHandler { try? api.pruneGlow() }
    pruning.resume()
    let finishing = DispatchSource.makeTimerSource(queue: .global())
    finishing.schedule(deadline: .now() + .seconds(LiveMapService.removalRetrySeconds), repeating: .seconds(LiveMapService.removalRetrySeconds))
    finishing.setEventHandler { try? live.finishInterruptedRemovals() }
    finishing.resume()
    OpenFileLimit.raiseToHardLimit()
    let log = AccessLog(output: FileHandle.standardError)
    let server = try HTTPServer(host: host, port: UInt16(port), threads: threads, perClientLimit: perClient, requestTimeout: requestTimeout,
                                reusePort: options.flag("reuse-port"), handler: { api.handle($0) },
                                answered: { request, status, duration in log.record(request, status: status, duration: duration) })
    var banner = "listening on http://\(host):\(server.port) with \(threads) threads\n"
    if demo { banner += "viewer: http://\(host):\(server.port)/#token=\(try live.mintToken(for: DemoSeed.viewerID(engine.scene).rawValue))\n" }
    Console.out(banner)
    stop.wait()
    // Graceful: readiness turns 503, nothing new is accepted, streams end, requests in flight finish (their writes
    // are durable when answered), all within HTTPServer.stopGrace.
    api.beginStopping()
    let cut = server.stop()
    pruning.cancel()
    finishing.cancel()
    if cut > 0 { CommandLineTool.printError("snapmap serve: \(cut) requests were unfinished after \(HTTPServer.stopGrace) and were cut") }
    return "stopped"
}

/// Waits for the server's stop: one of `signals` (caught from the start, so one sent while the server starts is
/// not lost) or, when asked, the end of standard input. The signals are heard on a queue of their own: on the
/// shared pool, whose threads renders keep busy, a SIGTERM once waited 9 s for one.
final class ServeLoop: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let signalQueue = DispatchQueue(label: "snapmap-stop-signals")
    private var sources: [any DispatchSourceSignal] = []

    init(stoppingOn signals: [Int32], orStdinEOF watchStdin: Bool) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
            source.setEventHandler { [done] in done.signal() }
            source.resume()
            sources.append(source)
        }
        if watchStdin {
            Thread.detachNewThread { [done] in
                while !FileHandle.standardInput.availableData.isEmpty {}
                done.signal()
            }
        }
    }

    func wait() {
        done.wait()
        sources.forEach { $0.cancel() }
    }
}

/// The descriptors a server may open: each connection takes one, and the server allows
/// `HTTPServer.connectionLimit` at once, beyond a shell's usual soft limit of 1,024.
enum OpenFileLimit {
    static func raiseToHardLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
