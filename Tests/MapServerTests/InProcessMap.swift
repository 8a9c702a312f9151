import Foundation
import LiveMap
import MapEngine
import MapScene
import MapServer

/// A clock a test sets: the server's clock for an `InProcessMap`.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time: Date

    init(_ time: Date) { self.time = time }

    var now: Date { lock.withLock { time } }

    func set(_ time: Date) { lock.withLock { self.time = time } }
}

/// The map API in this process, on a store of its own holding the scene's viewer (friendless) and `snaps`, at a clock
/// the test moves: what `snapmap serve` answers, without the network or a real clock in between.
final class InProcessMap: Sendable {
    static let dataDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data")

    let api: MapAPI
    let engine: MapEngine
    let clock: TestClock
    /// The scene viewer's (Sam's) token.
    let token: String

    init(snaps: [PublicSnap], at start: Date) throws {
        engine = try MapEngine(paths: DataPaths(dataDirectory: Self.dataDirectory))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-glow-\(UUID().uuidString).db").path
        let store = try SQLiteLiveStore(path: path)
        let viewer = try DemoSeed.viewerID(engine.scene)
        _ = try store.addPerson(Person(id: viewer, name: engine.scene.viewer.name, color: LiveMapService.palette[0]),
                                settings: SharingSettings(ghost: .off, audience: .friends))
        try store.addSnaps(snaps)
        let live = LiveMapService(store: store)
        token = try live.mintToken(for: viewer.rawValue)
        let clock = TestClock(start)
        self.clock = clock
        api = try MapAPI(engine: engine, live: live, clock: { clock.now })
    }

    /// The demo's Snaps, as `snapmap seed` loads them.
    static func demoSnaps() throws -> [PublicSnap] {
        try SnapsFile.read(dataDirectory.appendingPathComponent(SnapsFile.demoFile))
    }

    /// One request, answered as the server would (a deferred answer awaited); `/v1/me/` paths carry Sam's token.
    func fetch(_ path: String, query: [String: String] = [:], ifNoneMatch: String? = nil, method: String = "GET",
               body: String = "") async -> HTTPResponse {
        let request = HTTPRequest(method: method, path: path, query: query, ifNoneMatch: ifNoneMatch,
                                  authorization: path.hasPrefix("/v1/me/") ? "Bearer " + token : nil,
                                  contentType: body.isEmpty ? nil : "application/json", body: Array(body.utf8))
        let response = api.handle(request)
        guard let deferred = response.deferred else { return response }
        return await withCheckedContinuation { continuation in deferred(DeferredReply { continuation.resume(returning: $0) }) }
    }
}

extension HTTPResponse {
    /// The value of a header (names compared without case).
    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
