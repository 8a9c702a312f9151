import Foundation
import ServerTestSupport
import Testing
@testable import MapServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("The live API over HTTP", .serialized)
struct LiveHTTPTests {
    private var server: ServerFixture { get throws { try ServerFixture.shared.get() } }

    /// A layout answer without its `now` (the minute its labels are drawn for, which the clock moves), and that minute.
    private func apartFromTheMinute(_ data: Data) throws -> (NSDictionary, String?) {
        var layout = try json(data)
        let minute = layout.removeValue(forKey: "now") as? String
        return (layout as NSDictionary, minute)
    }

    private func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Two new people who are friends, Bob sharing; returns their tokens.
    private func pair(_ first: String, _ second: String) throws -> (String, String) {
        let server = try self.server
        try server.operate("users", "add", first, "--name", first.capitalized + " Test")
        try server.operate("users", "add", second, "--name", second.capitalized + " Test")
        try server.operate("friends", "add", first, second)
        try server.operate("sharing", second, "--ghost", "off")
        return (try server.operate("users", "token", first), try server.operate("users", "token", second))
    }

    private func body(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    @Test func privateEndpointsNeedATokenAndMissingAndUnknownTokensAnswerAlike() async throws {
        let server = try self.server
        let missing = try await server.fetch("/v1/me/layout.json", token: "")
        let unknown = try await server.fetch("/v1/me/layout.json", token: String(repeating: "a", count: 64))
        let garbage = try await server.fetch("/v1/me/layout.json", token: "not a token")
        #expect(missing.0 == 401 && unknown.0 == 401 && garbage.0 == 401)
        #expect(missing.2 == unknown.2 && unknown.2 == garbage.2 && missing.1["www-authenticate"] == unknown.1["www-authenticate"])
        for path in ["/v1/layout.json", "/v1/frame.png", "/v1/zoom?friend=jordan"] {
            #expect(try await server.fetch(path).0 == 404, "the old unauthenticated scene endpoints are gone: \(path)")
        }
        let layout = try json(try await server.fetch("/v1/me/layout.json").2)
        #expect((layout["pins"] as? [[String: Any]])?.count == 8, "Sam sees his eight sharing friends")
    }

    @Test func theSelectedFrameAndItsCardOverHTTP() async throws {
        let server = try self.server
        let (status, _, body) = try await server.fetch("/v1/me/layout.json?selected=jordan&at-selection=true")
        let card = try #require(try json(body)["card"] as? [String: Any])
        #expect(status == 200 && card["deepLink"] as? String == "snapchat://chat/jordan" && card["chatLabel"] as? String == "Chat")
        let frame = try await server.fetch("/v1/me/frame.png?selected=jordan&at-selection=1&scale=1")
        #expect(frame.0 == 200 && frame.2.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try await server.fetch("/v1/me/frame.png?at-selection=1").0 == 400, "at-selection needs a selected friend")
        let fly = try await server.fetch("/v1/me/fly.png?friend=jordan&scale=1")
        #expect(fly.0 == 200 && fly.1["content-type"] == "image/apng" && String(decoding: fly.2.prefix(64), as: UTF8.self).contains("acTL"))
        #expect(try await server.fetch("/v1/me/fly.png?friend=rae&scale=1").0 == 404, "hidden like unknown")
    }

    @Test func unknownAndHiddenPeopleAnswerExactlyAlike() async throws {
        let server = try self.server
        for path in ["/v1/me/zoom?friend=", "/v1/me/layout.json?selected=", "/v1/me/frame.png?scale=1&selected="] {
            let hidden = try await server.fetch(path + "rae")
            let unknown = try await server.fetch(path + "raf")
            #expect(hidden.0 == unknown.0 && hidden.0 >= 400)
            #expect(String(decoding: hidden.2, as: UTF8.self).replacingOccurrences(of: "rae", with: "raf") == String(decoding: unknown.2, as: UTF8.self))
            #expect(hidden.1.filter { $0.key != "date" } == unknown.1.filter { $0.key != "date" }, "\(path)")
        }
    }

    @Test func aFriendsMoveReachesTheLayoutAndTheEventStream() async throws {
        let server = try self.server
        let (annToken, bobToken) = try pair("ann1", "bob1")
        let before = try await server.fetch("/v1/me/layout.json", token: annToken)
        #expect((try json(before.2)["pins"] as? [[String: Any]])?.isEmpty == true, "Bob has sent no location yet")
        let events = try EventStream(server: server, token: annToken)
        events.read(until: "event: ready")
        let put = try await server.fetch("/v1/me/location", method: "PUT", body: body(["lat": 40.7181, "lon": -73.9571, "accuracyMeters": 12]), token: bobToken)
        #expect(put.0 == 204)
        events.read(until: "event: appear")
        #expect(events.received.contains("\"id\":\"bob1\"") && events.received.contains("40.7181"))
        let after = try json(try await server.fetch("/v1/me/layout.json", token: annToken).2)
        #expect((after["pins"] as? [[String: Any]])?.map { $0["id"] as? String } == ["bob1"])
        let movedTag = try await server.fetch("/v1/me/layout.json", token: annToken).1["etag"]
        #expect(before.1["etag"] != movedTag, "a friend's move changes the ETag")
        let ghost = try await server.fetch("/v1/me/sharing", method: "PUT", body: body(["ghost": "3h"]), token: bobToken)
        let settings = try json(ghost.2)
        #expect(ghost.0 == 200 && settings["ghost"] as? String == "3h" && settings["ghostUntil"] != nil)
        events.read(until: "event: disappear")
        #expect(events.received.contains("event: disappear"))
        #expect((try json(try await server.fetch("/v1/me/layout.json", token: annToken).2)["pins"] as? [[String: Any]])?.isEmpty == true)
    }

    @Test func friendsBlocksAndTheFriendList() async throws {
        let server = try self.server
        try server.operate("users", "add", "cy2", "--name", "Cy Test")
        try server.operate("users", "add", "dee2", "--name", "Dee Test")
        let (cy, dee) = (try server.operate("users", "token", "cy2"), try server.operate("users", "token", "dee2"))
        let asked = try json(try await server.fetch("/v1/me/friends/dee2", method: "POST", token: cy).2)
        #expect(asked["status"] as? String == "requested")
        let incoming = try json(try await server.fetch("/v1/me/friends", token: dee).2)
        #expect(String(describing: incoming).contains("incoming") && !String(describing: incoming).contains("lat"))
        #expect(try json(try await server.fetch("/v1/me/friends/cy2", method: "POST", token: dee).2)["status"] as? String == "friends")
        #expect(try await server.fetch("/v1/me/blocks/dee2", method: "POST", token: cy).0 == 204)
        #expect(try await server.fetch("/v1/me/friends/cy2", method: "POST", token: dee).0 == 404, "a blocked person is like an unknown one")
        #expect(try await server.fetch("/v1/me/blocks/dee2", method: "DELETE", token: cy).0 == 204)
        #expect(try await server.fetch("/v1/me/blocks/jordan", method: "POST", token: cy).0 == 204, "anyone who exists can be blocked")
        #expect(try await server.fetch("/v1/me/blocks/nobody-here", method: "POST", token: cy).0 == 404, "an unknown id cannot")
        #expect(try await server.fetch("/v1/me/friends/cy2", method: "POST", token: cy).0 == 400, "befriending oneself")
    }

    @Test(arguments: [
        ("{", 400, "body"), ("[1]", 400, "body"), ("{\"lat\": 95, \"lon\": 0, \"accuracyMeters\": 5}", 400, "lat"),
        ("{\"lat\": \"40\", \"lon\": 0, \"accuracyMeters\": 5}", 400, "lat"), ("{\"lat\": true, \"lon\": 0, \"accuracyMeters\": 5}", 400, "lat"),
        ("{\"lat\": 40, \"lon\": null, \"accuracyMeters\": 5}", 400, "lon"), ("{\"lon\": 0, \"accuracyMeters\": 5}", 400, "lat"),
        ("{\"lat\": 40, \"lon\": 0, \"accuracyMeters\": 5, \"speed\": 3}", 400, "speed"),
        ("{\"lat\": 40, \"lon\": 0, \"accuracyMeters\": -1}", 400, "accuracyMeters"),
        ("{\"lat\": 40, \"lon\": 0, \"accuracyMeters\": 5, \"at\": \"2099-01-01T00:00:00Z\"}", 400, "at"),
        ("{\"lat\": 40, \"lon\": 0, \"accuracyMeters\": 5, \"at\": \"yesterday\"}", 400, "at"),
        ("{\"lat\": 40, \"lon\": 0, \"accuracyMeters\": 5, \"place\": \"" + String(repeating: "x", count: 20_000) + "\"}", 413, ""),
        (String(repeating: "[", count: 513), 400, "body"),
    ])
    func badLocationsAreClearErrorsThatChangeNothing(body: String, status: Int, field: String) async throws {
        // A sender and a friend of their own, so that neither the clock nor other tests on the shared server move
        // the friend's map: it changes only if the sender's fix does.
        let server = try self.server
        let id = UUID().uuidString.prefix(6).lowercased()
        let (sender, watcher) = ("bad-\(id)", "watch-\(id)")
        try server.operate("users", "add", sender, "--name", "Bad Test")
        try server.operate("users", "add", watcher, "--name", "Watch Test")
        try server.operate("friends", "add", sender, watcher)
        try server.operate("sharing", sender, "--ghost", "off")
        let (senderToken, watcherToken) = (try server.operate("users", "token", sender), try server.operate("users", "token", watcher))
        let before = try await server.fetch("/v1/me/layout.json", token: watcherToken)
        let answer = try await server.fetch("/v1/me/location", method: "PUT", body: Data(body.utf8), token: senderToken)
        #expect(answer.0 == status, "\(body.prefix(60))")
        #expect(answer.1["content-type"] == "application/json")
        if !field.isEmpty { #expect((try json(answer.2))["field"] as? String == field, "\(String(decoding: answer.2, as: UTF8.self))") }
        let after = try await server.fetch("/v1/me/layout.json", token: watcherToken)
        let (beforeMap, beforeMinute) = try apartFromTheMinute(before.2)
        let (afterMap, afterMinute) = try apartFromTheMinute(after.2)
        #expect(afterMap == beforeMap, "nothing changed")
        if afterMinute == beforeMinute { #expect(after.1["etag"] == before.1["etag"], "nothing changed, not even the tag") }
        let good = Data(#"{"lat": 40.7153, "lon": -73.951, "accuracyMeters": 5}"#.utf8)
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: good, token: senderToken).0 == 204)
        #expect(try await server.fetch("/v1/me/layout.json", token: watcherToken).1["etag"] != before.1["etag"], "a kept fix does change it")
    }

    @Test func locationUpdatesAreRateLimitedPerPerson() async throws {
        let server = try self.server
        try server.operate("users", "add", "fast3", "--name", "Fast Test")
        let token = try server.operate("users", "token", "fast3")
        let bodies = try (0..<60).map { try body(["lat": 40.71, "lon": -73.95 + Double($0) / 1e4, "accuracyMeters": 5]) }
        var statuses: [Int] = []
        for step in 0..<20 {
            statuses.append(try await server.fetch("/v1/me/location", method: "PUT", body: bodies[step], token: token).0)
        }
        #expect(statuses.allSatisfy { $0 == 204 }, "a burst of 20 is allowed")
        // The next 40 at once, so that they come faster than the 10 a second the bucket refills, however busy the machine.
        let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for step in 20..<60 {
                group.addTask {
                    let answer = try await server.fetch("/v1/me/location", method: "PUT", body: bodies[step], token: token)
                    return (answer.0, answer.1["retry-after"])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.contains { $0.0 == 429 && $0.1 != nil }, "beyond the burst: 429 with Retry-After")
    }

    /// A new Snap is accepted at once but drawn from the next epoch on (`GlowEpochTests` moves the clock there): the
    /// fixture's clock starts at the scene's time, an epoch's start, so the next one is minutes of real time away.
    @Test func aNewSnapIsAcceptedAndLeavesTheEpochsTileAsItWas() async throws {
        let server = try ServerFixture()
        let near = "/heat/15/9652/12319.png"
        let (status, headers, before) = try await server.fetch(near)
        let tag = try #require(headers["etag"])
        #expect(status == 200 && before.count > 100 && headers["cache-control"] == "public, max-age=60")
        #expect(try await server.fetch("/v1/me/snaps", method: "POST", body: body(["lat": 40.7207, "lon": -73.9515])).0 == 204)
        #expect(try await server.fetch(near, headers: ["If-None-Match": tag]).0 == 304, "the tile under the new Snap waits for the next epoch")
    }

    @Test(arguments: [
        ("{\"lat\": 95, \"lon\": 0}", "lat"), ("{\"lat\": 40.7, \"lon\": -73.9, \"at\": \"2020-01-01T00:00:00Z\"}", "at"),
        ("{\"lat\": 40.7, \"lon\": -73.9, \"weight\": 9}", "weight"), ("{\"lon\": -73.9}", "lat"),
    ])
    func badSnapsAreClearErrors(body: String, field: String) async throws {
        let answer = try await self.server.fetch("/v1/me/snaps", method: "POST", body: Data(body.utf8))
        let error = try json(answer.2)
        #expect(answer.0 == 400 && error["field"] as? String == field, "\(error)")
        #expect(try await self.server.fetch("/v1/me/snaps", method: "POST", body: Data(body.utf8), token: "").0 == 401)
    }
}

@Suite("Heavy renders under pressure")
struct RenderPressureTests {
    @Test func framesBeyondTheQueueAre503AndHealthStillAnswers() async throws {
        let server = try ServerFixture()
        // The server refuses a render when its pool's width and queue (1 + 4 renders a core) are full: more frames than
        // that at once, on this machine's cores (the server runs on the same ones), however many there are. Each
        // person holds at most their share of the pool (429 past it), so the frames are asked by enough people.
        let frameCount = 5 * ProcessInfo.processInfo.activeProcessorCount + 8
        // One person holds at most `RenderPool.perPersonLimit` places: the frames come from enough people to fill it.
        let people = (frameCount + RenderPool.perPersonLimit - 1) / RenderPool.perPersonLimit
        let tokens = try (0..<people).map { index in
            try server.operate("users", "add", "pressure\(index)", "--name", "Pressure \(index)")
            return try server.operate("users", "token", "pressure\(index)")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = frameCount + 1
        let session = URLSession(configuration: configuration)
        let results = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<frameCount {
                group.addTask {
                    var request = URLRequest(url: URL(string: server.base.absoluteString + "/v1/me/frame.png?zoom=\(13 + Double(index) / Double(frameCount) * 4)&size=2000x2000&scale=2")!)
                    request.setValue("Bearer " + tokens[index % people], forHTTPHeaderField: "Authorization")
                    request.timeoutInterval = 600
                    let (_, response) = try await session.data(for: request)
                    let http = response as! HTTPURLResponse
                    return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"))
                }
            }
            group.addTask {
                let (status, _, body) = try await server.fetch("/healthz")
                return (status == 200 && !body.isEmpty ? -200 : status, nil)
            }
            var all: [(Int, String?)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.contains { $0.0 == -200 }, "/healthz answered while frames were rendering")
        let frames = results.filter { $0.0 != -200 }
        #expect(frames.allSatisfy { $0.0 == 200 || $0.0 == 503 }, "\(frames.map(\.0))")
        #expect(frames.contains { $0.0 == 503 && $0.1 == "1" }, "frames beyond the queue were refused with Retry-After")
        #expect(frames.contains { $0.0 == 200 })
    }
}

@Suite("Requests a hostile page could make")
struct HostileRequestTests {
    private func curl(_ arguments: [String]) throws -> String {
        try TestProcess.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", "-w", "%{http_code}"] + arguments).output
    }

    @Test func privateAnswersNeedALoopbackHostName() throws {
        let server = try ServerFixture.shared.get()
        let url = server.base.absoluteString + "/v1/me/layout.json"
        #expect(try curl(["-H", "Authorization: Bearer \(server.token)", "-H", "Host: evil.example:8080", url]) == "421", "DNS rebinding gets nothing")
        #expect(try curl(["-H", "Authorization: Bearer \(server.token)", url]) == "200")
        #expect(try curl(["-H", "Host: evil.example", server.base.absoluteString + "/healthz"]) == "200", "public answers are for any name")
    }

    @Test func separatorsInTheQueryCannotForgeAParameter() async throws {
        let server = try ServerFixture.shared.get()
        let (status, _, body) = try await server.fetch("/v1/me/layout.json?center=40.7,-73.9%1Fzoom%1E19")
        #expect(status == 400 && String(decoding: body, as: UTF8.self).contains("%00-%1F"))
        #expect(try await server.fetch("/healthz").0 == 200)
    }
}

@Suite("Slow clients")
struct SlowClientTests {
    @Test func slowClientsBeyondTheirLimitAreRefusedAndHealthStillAnswers() throws {
        let server = try ServerFixture()
        let result = try slowClients(server, count: 600, addresses: 1)
        #expect(result["healthz"] as? Int == 200, "\(result)")
        #expect((result["closedByServer"] as? Int ?? 0) >= 600 - 256 - 8, "connections beyond the per-client limit are refused: \(result)")
    }

    /// 2,000 connections from 16 addresses trickle a byte every half second (MHD's idle timeout never fires):
    /// /healthz still answers at once, and the request timeout closes every one of them.
    /// The same for bodies: 200 clients send whole headers announcing a 1,000-byte body, then trickle it.
    @Test(arguments: [(2000, false), (200, true)])
    func tricklingClientsAreCutOffAtTheRequestTimeout(count: Int, body: Bool) throws {
        let timeout = 2.0
        let server = try ServerFixture(serveOptions: ["--request-timeout", String(Int(timeout))])
        let result = try slowClients(server, count: count, addresses: 16, trickle: true, body: body)
        #expect(result["healthz"] as? Int == 200, "\(result)")
        #expect((result["healthzMs"] as? Double ?? .infinity) < 500, "\(result)")
        #expect((result["trickled"] as? Int ?? 0) >= count * 95 / 100, "the per-client limit leaves 16 addresses their connections: \(result)")
        #expect(result["stillOpen"] as? Int == 0, "\(result)")
        #expect((result["firstClosedAfter"] as? Double ?? 0) >= timeout - 0.1, "closed by the request timeout, not before: \(result)")
        #expect((result["allClosedAfter"] as? Double ?? .infinity) < timeout + 5, "\(result)")
    }

    private func slowClients(_ server: ServerFixture, count: Int, addresses: Int, trickle: Bool = false, body: Bool = false) throws -> [String: Any] {
        let text = try TestProcess.run(program: "python3", [server.root.appendingPathComponent("Tests/tools/slow_clients.py").path, "127.0.0.1",
                                                            String(server.base.port ?? 0), String(count), String(addresses)]
                                                           + (trickle ? ["--trickle"] : []) + (body ? ["--body"] : [])).stdout
        return try #require(try JSONSerialization.jsonObject(with: text) as? [String: Any], "\(String(decoding: text, as: UTF8.self))")
    }
}
