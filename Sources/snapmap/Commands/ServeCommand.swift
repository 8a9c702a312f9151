import Foundation
import LiveMap
import MapEngine
import MapScene
import MapServer

/// `snapmap serve`: the HTTP API and the web viewer.
let runServe: Command.Run = { options in
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
