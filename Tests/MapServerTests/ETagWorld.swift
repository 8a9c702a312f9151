import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import MapServer
import Testing

/// One request of the ETag suite: a path, its query, and the request headers an answer may depend on.
struct Probe: Sendable, CustomStringConvertible {
    let name: String
    let path: String
    var query: [String: String] = [:]
    var acceptEncoding: String?
    var host = "127.0.0.1"

    var description: String { name }

    /// The same request with one query parameter set.
    func with(_ key: String, _ value: String) -> Probe {
        var probe = self
        probe.query[key] = value
        return probe
    }
}

/// An answer as the invariant sees it: its bytes (status, type, body) and its tag.
struct Seen: Sendable {
    let status: Int
    let type: String
    let body: [UInt8]
    let tag: String?

    init(_ response: HTTPResponse) {
        status = response.status
        type = response.contentType
        body = response.body
        tag = response.header("ETag")
    }

    func sameBytes(_ other: Seen) -> Bool { status == other.status && type == other.type && body == other.body }
}

/// The demo world (Sam, his eight friends, the demo's Snaps) in a store of its own, Sam with a fix of his own, and
/// the API over it in this process at a clock the test moves, starting half a minute into an epoch and an hour.
final class ETagWorld: Sendable {
    /// 18:00:30 on the demo's day: Jordan's pin reads "2m", Maya's "5m", Leo's "3h"; the epoch ends at 18:05.
    static let start = ISO8601DateFormatter().date(from: "2026-11-29T18:00:30Z")!

    let engine: MapEngine
    let live: LiveMapService
    let api: MapAPI
    let clock: TestClock
    let token: String

    /// The world over the data in `dataDirectory` (the project's by default), the base map's sources in `baseMapSources`.
    init(dataDirectory: URL = InProcessMap.dataDirectory, baseMapSources: URL? = nil) throws {
        engine = try MapEngine(paths: DataPaths(dataDirectory: dataDirectory, baseMapSourceDirectory: baseMapSources))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-etag-\(UUID().uuidString).db").path
        let store = try SQLiteLiveStore(path: path, synchronous: false)
        try DemoSeed.seed(store, scene: engine.scene, snapsFile: engine.paths.dataDirectory.appendingPathComponent(SnapsFile.demoFile))
        live = LiveMapService(store: store)
        let clock = TestClock(Self.start)
        self.clock = clock
        let own = try LocationFix(lat: 40.7150, lon: -73.9580, accuracyMeters: 8, takenAt: Self.start.addingTimeInterval(-60))
        try live.updateLocation(PersonID("samriv"), fix: own, now: Self.start)
        token = try live.mintToken(for: "samriv")
        api = try MapAPI(engine: engine, live: live, clock: { clock.now })
    }

    /// One request answered as the server would (a deferred answer awaited); `/v1/me/` paths carry Sam's token.
    /// Sam's renders past his share of the pool (429, the cases run at once) are asked again, as a phone would.
    func ask(_ probe: Probe, ifNoneMatch: String? = nil) async -> HTTPResponse {
        let request = HTTPRequest(method: "GET", path: probe.path, query: probe.query, ifNoneMatch: ifNoneMatch, host: probe.host,
                                  authorization: probe.path.hasPrefix("/v1/me/") ? "Bearer " + token : nil, acceptEncoding: probe.acceptEncoding)
        while true {
            let response = api.handle(request)
            guard response.status == 429, response.headers.contains(where: { $0.0 == "Retry-After" }) else {
                guard let deferred = response.deferred else { return response }
                return await withCheckedContinuation { continuation in deferred(DeferredReply { continuation.resume(returning: $0) }) }
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Every probe's answer now, by name.
    func seen(_ probes: [Probe]) async -> [String: Seen] {
        var answers: [String: Seen] = [:]
        for probe in probes { answers[probe.name] = Seen(await ask(probe)) }
        return answers
    }

    /// Moves the clock by `seconds`.
    func advance(_ seconds: Double) { clock.set(clock.now.addingTimeInterval(seconds)) }

    /// The invariant for one answer, given as it was (`old`) and as it is asked now: its tag changed exactly when
    /// its bytes did, and a revalidation with the old tag is 304 (with that tag) exactly when they did not, else the
    /// new answer. Every 200 carries a tag. Returns whether the bytes changed.
    static func holds(_ label: String, old: Seen, ask: (String?) async -> HTTPResponse) async -> Bool {
        let new = Seen(await ask(nil))
        let changed = !new.sameBytes(old)
        #expect(new.status != 200 || new.tag != nil, "\(label): a 200 without a tag")
        if old.tag != nil || new.tag != nil {
            let retagged = new.tag != old.tag
            #expect(retagged == changed, "\(label): bytes \(changed ? "changed" : "kept") but the tag \(retagged ? "changed" : "stayed")")
        }
        if let tag = old.tag {
            let revalidated = Seen(await ask(tag))
            if changed {
                #expect(revalidated.sameBytes(new) && revalidated.tag == new.tag, "\(label): a revalidation hid a change (\(revalidated.status))")
            } else {
                #expect(revalidated.status == 304 && revalidated.tag == tag, "\(label): a revalidation of the same bytes got \(revalidated.status)")
            }
        }
        return changed
    }

    /// Asks `probes`, makes `change`, asks them again and checks the invariant for each; returns the names of those
    /// whose bytes changed.
    func changed(by label: String, _ probes: [Probe], _ change: () throws -> Void) async throws -> Set<String> {
        let before = await seen(probes)
        try change()
        var changed: Set<String> = []
        for probe in probes {
            guard let old = before[probe.name] else { continue }
            if await Self.holds("\(label): \(probe)", old: old, ask: { await self.ask(probe, ifNoneMatch: $0) }) { changed.insert(probe.name) }
        }
        return changed
    }
}
