import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapServer
import ServerTestSupport
import Testing

/// Footsteps over HTTP: only their owner reads them, and clearing is at once.
@Suite("Footsteps over HTTP", .serialized)
struct FootstepsHTTPTests {
    private func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func body(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    @Test func onlyTheOwnerReadsTheirPlacesAndClearingIsAtOnce() async throws {
        let server = try ServerFixture.shared.get()
        try server.operate("users", "add", "fsa", "--name", "Fsa Test")
        let token = try server.operate("users", "token", "fsa")
        #expect(try json(try await server.fetch("/v1/me/footsteps", token: token).2)["on"] as? Bool == false, "off for a new person")
        let bad = try await server.fetch("/v1/me/footsteps", method: "PUT", body: body(["on": "yes"]), token: token)
        let badError = try json(bad.2)
        #expect(bad.0 == 400 && badError["field"] as? String == "on")
        let on = try await server.fetch("/v1/me/footsteps", method: "PUT", body: body(["on": true]), token: token)
        let onAnswer = try json(on.2)
        #expect(on.0 == 200 && onAnswer["on"] as? Bool == true)
        // Times before the scene's capture, where the demo server's clock starts: in its past, within the day.
        let start = ISO8601DateFormatter().date(from: "2026-11-29T18:00:00Z")!.addingTimeInterval(-3000)
        let walk: [(Double, Double, Double)] = [(40.7100, -73.9600, 0), (40.7101, -73.9600, 60), (40.7150, -73.9600, 120), (40.7150, -73.9601, 2000)]
        for (lat, lon, seconds) in walk {
            let at = ISO8601DateFormatter().string(from: start.addingTimeInterval(seconds))
            let put = try await server.fetch("/v1/me/location", method: "PUT", body: body(["lat": lat, "lon": lon, "accuracyMeters": 5, "at": at]), token: token)
            #expect(put.0 == 204)
        }
        let answer = try await server.fetch("/v1/me/footsteps.json", token: token)
        #expect(answer.0 == 200 && answer.1["content-type"] == "application/geo+json" && answer.1["cache-control"] == "private, no-store")
        // Python's json module reads what was written: the FeatureCollection's points, in [lon, lat] order.
        let python = try TestProcess.run(program: "python3", ["-c", """
            import json,sys
            d=json.load(sys.stdin)
            assert d["type"]=="FeatureCollection"
            for f in d["features"]:
                assert f["type"]=="Feature" and f["geometry"]["type"]=="Point"
                print(f["geometry"]["coordinates"][1], f["geometry"]["coordinates"][0], f["properties"]["firstVisit"] <= f["properties"]["lastVisit"])
            """], input: answer.2)
        #expect(python.output.split(separator: "\n") == ["40.71 -73.96 True", "40.715 -73.96 True", "40.715 -73.9601 True"], "\(python.errorOutput)")
        #expect((try json(try await server.fetch("/v1/me/footsteps.json").2)["features"] as? [Any])?.isEmpty == true, "Sam's are his own: none")
        // Pages: two places, then the third with no next; the pages together are the whole answer's features.
        let whole = try json(answer.2)["features"] as? [[String: Any]]
        #expect(try json(answer.2)["next"] == nil && whole?.count == 3)
        let first = try json(try await server.fetch("/v1/me/footsteps.json?limit=2", token: token).2)
        let next = try #require(first["next"] as? String)
        let second = try json(try await server.fetch("/v1/me/footsteps.json?limit=2&after=" + next, token: token).2)
        #expect(second["next"] == nil)
        let paged = ((first["features"] as? [[String: Any]]) ?? []) + ((second["features"] as? [[String: Any]]) ?? [])
        #expect(try JSONSerialization.data(withJSONObject: paged, options: .sortedKeys) == JSONSerialization.data(withJSONObject: whole ?? [], options: .sortedKeys))
        for (query, parameter) in [("limit=0", "limit"), ("limit=1001", "limit"), ("limit=2.5", "limit"), ("after=12", "after"), ("after=1.x", "after")] {
            let refused = try await server.fetch("/v1/me/footsteps.json?" + query, token: token)
            let named = try json(refused.2)["parameter"] as? String
            #expect(refused.0 == 400 && named == parameter, "\(query)")
        }
        // Explored: the walk reaches streets of a neighbourhood or more, each with its share and sentence; Sam's none.
        let explored = try json(try await server.fetch("/v1/me/explored.json", token: token).2)["neighbourhoods"] as? [[String: Any]] ?? []
        #expect(!explored.isEmpty && explored.allSatisfy { row in
            guard let share = row["share"] as? Double, let name = row["neighbourhood"] as? String else { return false }
            return (0...1).contains(share) && row["text"] as? String == "You have explored \(Int((share * 100).rounded(.down)))% of \(name)"
        }, "\(explored)")
        #expect((try json(try await server.fetch("/v1/me/explored.json").2)["neighbourhoods"] as? [Any])?.isEmpty == true, "Sam's are his own: none")
        let printed = try server.operate("footsteps", "explored", "fsa").split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(printed == explored.compactMap { $0["text"] as? String }, "the operator's command says what the API does")
        #expect(try await server.fetch("/v1/me/footsteps", method: "DELETE", token: token).0 == 204)
        #expect((try json(try await server.fetch("/v1/me/footsteps.json", token: token).2)["features"] as? [Any])?.isEmpty == true, "cleared at once")
        #expect((try json(try await server.fetch("/v1/me/explored.json", token: token).2)["neighbourhoods"] as? [Any])?.isEmpty == true, "nothing explored once cleared")
        #expect(try server.operate("footsteps", "show", "fsa").isEmpty)
        #expect(try await server.fetch("/v1/me/footsteps.json", method: "POST", token: token).0 == 405)
    }

    /// A friend's Footsteps send nothing down an open stream: Sam's stream, while Jordan turns them on, walks, draws
    /// his tinted frame, reads what he explored and clears them, hears exactly Jordan's two moves and nothing else.
    @Test func aFriendsFootstepsSendNothingDownAStream() async throws {
        let server = try ServerFixture()
        try server.operate("sharing", "jordan", "--ghost", "off")
        let jordan = try server.operate("users", "token", "jordan")
        let events = try EventStream(server: server, token: server.token)
        #expect(events.read(until: "event: ready"))
        let ready = events.received.count
        #expect(try await server.fetch("/v1/me/footsteps", method: "PUT", body: body(["on": true]), token: jordan).0 == 200)
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: body(["lat": 40.7161, "lon": -73.9621, "accuracyMeters": 5]), token: jordan).0 == 204)
        #expect(events.read(until: "40.7161", timeout: 5))
        #expect(try await server.fetch("/v1/me/frame.png?layers=base,footsteps&center=40.7161,-73.9621&zoom=16&size=200x200&scale=1", token: jordan).0 == 200)
        #expect(try await server.fetch("/v1/me/explored.json", token: jordan).0 == 200)
        #expect(try await server.fetch("/v1/me/footsteps", method: "DELETE", token: jordan).0 == 204)
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: body(["lat": 40.7172, "lon": -73.9633, "accuracyMeters": 5]), token: jordan).0 == 204)
        #expect(events.read(until: "40.7172", timeout: 5))
        let heard = String(events.received.dropFirst(ready)).split(separator: "\n").filter { $0.hasPrefix("event: ") }
        #expect(heard == ["event: move", "event: move"], "\(events.received.dropFirst(ready))")
    }
}

/// The attacker's view of Footsteps, in the counterfactual suite (one test at a time: its two engines are shared, and
/// a test beside it changing their glow or filling their render pools would make the worlds differ by more than
/// Jordan's Footsteps).
extension CounterfactualTests {
    /// Two worlds alike but for Jordan keeping Footsteps while he walks: every map answer Sam gets (but the fly-to, the
    /// same frames again and the heaviest render here: under load it met the render bound), Jordan's own, and the
    /// public tiles and glow are byte for byte the same (status, headers, body).
    @Test func aPersonsFootstepsChangeNoByteAnyoneElseReceives() throws {
        let (engine, control) = try Self.engines.get()
        let (keeping, not) = (try Self.world(engine, seed: 29), try Self.world(control, seed: 29))
        let now = engine.scene.capturedAt
        let (apiKeeping, apiNot) = (try MapAPI(engine: engine, live: keeping, clock: { now }), try MapAPI(engine: control, live: not, clock: { now }))
        let jordan = try PersonID("jordan")
        try keeping.setFootsteps(jordan, on: true)
        for step in 0..<8 {
            let fix = try LocationFix(lat: 40.7120 + Double(step) * 0.0008, lon: -73.9650, accuracyMeters: 6, takenAt: now.addingTimeInterval(Double(step * 5 - 50)))
            for world in [keeping, not] { try world.updateLocation(jordan, fix: fix, now: now) }
        }
        #expect(try keeping.footsteps(of: jordan).count > 3 && not.footsteps(of: jordan).isEmpty, "only one world kept them")
        // Jordan's own frame with his footsteps layer, asked for first, so a cache it filled would show in Sam's answers.
        let walked = ["layers": "base,heat,pins,footsteps", "center": "40.7148,-73.9650", "zoom": "16", "size": "300x300", "scale": "2"]
        let (jordanKeeping, jordanNot) = (try keeping.mintToken(for: "jordan"), try not.mintToken(for: "jordan"))
        let tinted = Self.answer(apiKeeping, "frame.png", walked, token: jordanKeeping)
        #expect(tinted.status == 200 && tinted != Self.answer(apiNot, "frame.png", walked, token: jordanNot), "Jordan sees his streets tinted")
        #expect(Self.answer(apiKeeping, "explored.json", [:], token: jordanKeeping) != Self.answer(apiNot, "explored.json", [:], token: jordanNot),
                "and what he explored")
        let samsOwn = Self.requests.filter { $0.0 != "fly.png" } + [("friends", [:]), ("frame.png", walked), ("explored.json", [:])]
        let jordansOwn: [(String, [String: String])] = [("layout.json", [:]), ("frame.png", [:]), ("hit", ["at": "150,330"])]
        for (id, name, requests) in [("samriv", "Sam", samsOwn), ("jordan", "Jordan", jordansOwn)] {
            let (token, controlToken) = (try keeping.mintToken(for: id), try not.mintToken(for: id))
            for (path, query) in requests {
                let (seen, other) = (Self.answer(apiKeeping, path, query, token: token), Self.answer(apiNot, path, query, token: controlToken))
                #expect(seen == other, "\(name): \(path) \(query): \(seen) against \(other)")
            }
        }
        for path in ["/tiles/14/4826/6157.png", "/heat/14/4826/6157.png", "/heat/15/9652/12314.png", "/tiles/14/4826/6157.mvt"] {
            let (seen, other) = (Self.publicAnswer(apiKeeping, path), Self.publicAnswer(apiNot, path))
            #expect(seen.status == 200 && seen.status == other.status && seen.body == other.body && seen.headers.map { "\($0)" } == other.headers.map { "\($0)" }, "\(path)")
        }
        // Cleared, Jordan's footsteps frame is at once the one of a world where he never kept any: bytes and tag.
        #expect(try keeping.clearFootsteps(jordan) > 3)
        #expect(Self.answer(apiKeeping, "frame.png", walked, token: jordanKeeping) == Self.answer(apiNot, "frame.png", walked, token: jordanNot))
        #expect(Self.answer(apiKeeping, "explored.json", [:], token: jordanKeeping) == Self.answer(apiNot, "explored.json", [:], token: jordanNot))
    }

    /// A public answer, waited for when it is made on the render pool.
    static func publicAnswer(_ api: MapAPI, _ path: String) -> HTTPResponse {
        let response = api.handle(HTTPRequest(method: "GET", path: path, host: "127.0.0.1"))
        guard let produce = response.deferred else { return response }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var final = response
        produce(DeferredReply { answer in
            final = answer
            done.signal()
        })
        done.wait()
        return final
    }
}
