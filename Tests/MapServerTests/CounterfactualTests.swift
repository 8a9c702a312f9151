import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import MapServer
import Testing

/// The attacker's model: what a person may not see changes no byte they receive. For each change a friend can make
/// (block, unfriend, Ghost Mode, an audience without the viewer, a fix turning 24 hours old, deleting the account; in
/// Ghost Mode, a Live Location share with the viewer paused, stopped or run to its end, or one with someone else),
/// every map answer the viewer gets in a random world is compared, byte for byte (status, headers, body), with the
/// same answer in that world where the friend never existed; so is the friend list, where the change ends the
/// friendship (a friend who hides is still a friend). The API runs in process on a fixed clock.
@Suite("Privacy under attack: against a world without the friend", .serialized)
struct CounterfactualTests {
    static let engines = Result { () throws -> (MapEngine, MapEngine) in
        let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data")
        return (try MapEngine(paths: DataPaths(dataDirectory: data)), try MapEngine(paths: DataPaths(dataDirectory: data)))
    }

    /// The demo world and a few random people around Sam and Jordan; the same for the same seed.
    static func world(_ engine: MapEngine, seed: UInt64) throws -> LiveMapService {
        let store = try SQLiteLiveStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-cf-\(UUID().uuidString)/live.db").path,
                                        synchronous: false)
        try DemoSeed.seed(store, scene: engine.scene, snapsFile: engine.paths.dataDirectory.appendingPathComponent(SnapsFile.demoFile))
        let live = LiveMapService(store: store)
        var random = SplitMix64(seed: seed)
        let now = engine.scene.capturedAt
        for index in 0..<5 {
            let id = try live.addPerson(id: "x\(index)", name: "Extra \(index)").id
            try live.setSharing(id, ghost: "off", audience: nil, now: now)
            for other in ["samriv", "jordan"] where random.next() % 3 != 0 {
                try live.requestFriend(id, other)
                try live.requestFriend(try PersonID(other), id.rawValue)
            }
            let fix = try LocationFix(lat: 40.708 + Double(random.next() % 140) / 10_000, lon: -73.968 + Double(random.next() % 200) / 10_000,
                                      accuracyMeters: 8, takenAt: now.addingTimeInterval(-Double(random.next() % 3000)))
            try live.updateLocation(id, fix: fix, now: now)
        }
        return live
    }

    /// Everything Sam can ask that may depend on Jordan.
    static let requests: [(String, [String: String])] = [
        ("layout.json", [:]), ("layout.json", ["selected": "jordan"]), ("layout.json", ["zoom": "13.2"]), ("frame.png", [:]),
        ("frame.png", ["selected": "jordan", "at-selection": "true"]), ("layout.json", ["selected": "jordan", "at-selection": "true"]),
        ("zoom", ["friend": "jordan"]), ("fly.png", ["friend": "jordan"]), ("sharing", [:]),
    ] + [(60, 200), (150, 330), (200, 420), (300, 600), (120, 700)].map { ("hit", ["at": "\($0.0),\($0.1)"]) }

    /// An answer as a client sees it: status, type, headers and the body's bytes.
    struct Answer: Equatable, CustomStringConvertible {
        let status: Int
        let head: String
        let body: [UInt8]
        var description: String { "\(status) \(head) (\(body.count) bytes)" }
    }

    static func answer(_ api: MapAPI, _ path: String, _ query: [String: String], token: String) -> Answer {
        var response = api.handle(HTTPRequest(method: "GET", path: "/v1/me/" + path, query: query, host: "127.0.0.1", authorization: "Bearer " + token))
        if let produce = response.deferred {
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var final = response
            produce(DeferredReply { answer in
                final = answer
                done.signal()
            })
            done.wait()
            response = final
        }
        let headers = response.headers.map { "\($0.0): \($0.1)" }.sorted().joined(separator: "; ")
        return Answer(status: response.status, head: response.contentType + "; " + headers, body: response.body)
    }

    static let changes = ["block", "unfriend", "ghost", "audience", "expiry", "delete", "livePaused", "liveStopped", "liveEnded", "liveToAnother"]

    /// A server clock the test moves.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var now: Date
        init(_ now: Date) { self.now = now }
        var current: Date { lock.withLock { now } }
        func advance(_ seconds: Double) { lock.withLock { now = now.addingTimeInterval(seconds) } }
    }

    @Test(arguments: changes)
    func whatAFriendHidesChangesNoByteTheViewerGets(change: String) throws {
        let (engine, control) = try Self.engines.get()
        let seed = UInt64(Self.changes.firstIndex(of: change) ?? 0) + 1
        let (changed, without) = (try Self.world(engine, seed: seed), try Self.world(control, seed: seed))
        let clock = Clock(engine.scene.capturedAt)
        let (apiChanged, apiWithout) = (try MapAPI(engine: engine, live: changed, clock: { clock.current }),
                                        try MapAPI(engine: control, live: without, clock: { clock.current }))
        let (sam, jordan) = (try PersonID("samriv"), try PersonID("jordan"))
        try without.removePerson("jordan")
        // Before deleting his account, Jordan posts public Snaps where the demo's posters crowd, drawn from the next
        // epoch: the deletion takes them out of the glow from the epoch after it.
        let hotspot = try #require(try changed.store.snaps(since: clock.current.addingTimeInterval(-86_400)).first).coordinate
        for minutes in 1...3 where change == "delete" {
            try changed.importSnaps([PublicSnap(person: jordan, coordinate: hotspot, takenAt: clock.current.addingTimeInterval(Double(-minutes * 60)))], now: clock.current)
        }
        clock.advance(Double(engine.glow.aggregate.settings.epochSeconds))
        let now = clock.current
        let endsFriendship = ["block", "unfriend", "delete"].contains(change)
        switch change {
        case "block": try changed.block(jordan, "samriv")
        case "unfriend": try changed.removeFriend(jordan, "samriv")
        case "ghost": try changed.setSharing(jordan, ghost: "3h", audience: nil, now: now)
        case "audience": try changed.setSharing(jordan, ghost: nil, audience: ("friendsExcept", ["samriv"]), now: now)
        case "expiry":
            // Jordan's fixture fix is newer than one about to expire: his fix goes with his account, and comes back old.
            let friends = try changed.relations(of: jordan).map(\.person.id.rawValue)
            try changed.removePerson("jordan")
            try changed.addPerson(id: "jordan", name: "Jordan Lee")
            try changed.setSharing(jordan, ghost: "off", audience: nil, now: now)
            for friend in friends {
                try changed.requestFriend(jordan, friend)
                try changed.requestFriend(try PersonID(friend), "jordan")
            }
            try changed.updateLocation(jordan, fix: LocationFix(lat: 40.7141, lon: -73.9685, accuracyMeters: 8, takenAt: now.addingTimeInterval(-86340)), now: now)
            #expect(try changed.visibleFriend(jordan, of: sam, at: now) != nil, "Jordan shows until his fix turns 24 hours old")
            clock.advance(120)
        case "livePaused", "liveStopped", "liveEnded", "liveToAnother":
            try changed.setSharing(jordan, ghost: "untilOff", audience: nil, now: now)
            let other = try #require(try changed.relations(of: jordan).first { $0.status == .friends && $0.person.id != sam }?.person.id.rawValue)
            let to = change == "liveToAnother" ? other : "samriv"
            try changed.startLiveShare(jordan, with: to, duration: "15m", now: now)
            #expect(try changed.visibleFriend(jordan, of: PersonID(to), at: now)?.liveUntil != nil, "the share shows Jordan, in Ghost Mode, to \(to)")
            switch change {
            case "livePaused": try changed.pauseLiveShare(jordan, with: to, paused: true, now: now)
            case "liveStopped": try changed.stopLiveShare(jordan, with: to)
            case "liveEnded": clock.advance(900)
            default: break
            }
        default:
            // The glow changes in epochs, a deletion too: from the next one on, Jordan's Snaps are gone.
            try changed.removePerson("jordan")
            clock.advance(Double(engine.glow.aggregate.settings.epochSeconds))
        }
        let (token, controlToken) = (try changed.mintToken(for: "samriv"), try without.mintToken(for: "samriv"))
        #expect(try changed.visibleFriends(of: sam, at: clock.current).count == without.visibleFriends(of: sam, at: clock.current).count,
                "the worlds differ only by Jordan")
        for (path, query) in Self.requests + (endsFriendship ? [("friends", [:])] : []) {
            let (seen, never) = (Self.answer(apiChanged, path, query, token: token), Self.answer(apiWithout, path, query, token: controlToken))
            #expect(seen == never, "\(change): \(path) \(query): \(seen) against \(never)")
        }
    }
}
