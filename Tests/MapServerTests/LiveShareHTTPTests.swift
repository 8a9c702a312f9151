import Foundation
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Live Location over HTTP and the command line, on a server of its own: a ghosted friend's share shows them on the
/// viewer's map, card and open stream, and pausing, stopping and the share's end hide them again. Each event is
/// waited for with the stream's own bound (a loaded machine delays everything); what is timed is the share's end,
/// never early, and the order of the events.
@Suite("Live Location over HTTP", .serialized)
struct LiveShareHTTPTests {
    static let capturedAt = ISO8601DateFormatter().date(from: "2026-11-29T18:00:00Z")!

    private func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func body(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    /// The card's line as a reader in New York reads the share's end.
    static func cardLine(_ until: String) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "America/New_York")
        formatter.dateFormat = "h:mm a"
        return "Live · until " + formatter.string(from: try #require(ISO8601DateFormatter().date(from: until)))
    }

    @Test func aShareShowsAGhostedFriendUntilPausedStoppedOrEnded() async throws {
        let started = Date()
        let server = try ServerFixture()
        let jordan = try server.operate("users", "token", "jordan")
        let events = try EventStream(server: server, token: server.token)
        #expect(events.read(until: "event: ready") && events.received.contains("\"id\":\"jordan\""))
        try server.operate("sharing", "jordan", "--ghost", "untilOff")
        #expect(events.read(until: "event: disappear\ndata: {\"id\":\"jordan\"}", count: 1))

        let start = try await server.fetch("/v1/me/live-shares", method: "POST", body: body(["friend": "samriv", "duration": "1h"]), token: jordan)
        let share = try json(start.2)
        #expect(start.0 == 200 && share["from"] as? String == "jordan" && share["to"] as? String == "samriv" && share["paused"] as? Bool == false)
        let until = try #require(share["until"] as? String)
        #expect(events.read(until: "event: live-started\ndata: {\"id\":\"jordan\",\"until\":\"\(until)\"}", count: 1))
        let appeared = try #require(events.received.range(of: "event: appear"))
        let liveStarted = try #require(events.received.range(of: "event: live-started"))
        #expect(appeared.lowerBound < liveStarted.lowerBound, "appear, then live-started")
        let card = try #require(try json(try await server.fetch("/v1/me/layout.json?selected=jordan&at-selection=true").2)["card"] as? [String: Any])
        #expect(card["seen"] as? String == (try Self.cardLine(until)))
        let listed = try json(try await server.fetch("/v1/me/live-shares").2)["shares"] as? [[String: Any]]
        #expect(listed?.count == 1 && listed?.first?["from"] as? String == "jordan", "Sam sees the share to him")

        let pause = try await server.fetch("/v1/me/live-shares/samriv", method: "PATCH", body: body(["paused": true]), token: jordan)
        let pausedShare = try json(pause.2)
        #expect(pause.0 == 200 && pausedShare["until"] as? String == until && pausedShare["paused"] as? Bool == true)
        #expect(events.read(until: "event: disappear\ndata: {\"id\":\"jordan\"}", count: 2), "pausing hid Jordan at once")
        #expect(events.received.contains("event: live-ended\ndata: {\"id\":\"jordan\"}\n\nevent: disappear"), "live-ended, then disappear")
        let pins = try json(try await server.fetch("/v1/me/layout.json").2)["pins"] as? [[String: Any]]
        #expect(pins?.contains { $0["id"] as? String == "jordan" } == false)
        let resume = try await server.fetch("/v1/me/live-shares/samriv", method: "PATCH", body: body(["paused": false]), token: jordan)
        #expect(resume.0 == 200 && events.read(until: "event: live-started", count: 2))
        #expect(try await server.fetch("/v1/me/live-shares/samriv", method: "DELETE", token: jordan).0 == 204)
        #expect(events.read(until: "event: disappear\ndata: {\"id\":\"jordan\"}", count: 3), "stopping hid Jordan at once")
        #expect(try await server.fetch("/v1/me/live-shares/samriv", method: "DELETE", token: jordan).0 == 404)

        // The command line starts a share whose end is 15 s after the server's now (its clock is the scene's, started
        // between `started` and now, so the end is no earlier than `ends`): Jordan leaves the open stream then, with
        // nobody writing anything, and never before.
        let serverNow = Self.capturedAt.addingTimeInterval(Date().timeIntervalSince(started))
        let clock = Date(timeIntervalSince1970: (serverNow.timeIntervalSince1970 - 900 + 15).rounded(.down))
        try server.operate("live", "start", "jordan", "samriv", "--for", "15m", "--clock", ISO8601DateFormatter().string(from: clock))
        #expect(events.read(until: "event: live-started", count: 3))
        let ends = Date().addingTimeInterval(clock.addingTimeInterval(900).timeIntervalSince(serverNow))
        #expect(events.read(until: "event: disappear\ndata: {\"id\":\"jordan\"}", count: 4), "the share's end hid Jordan")
        let late = Date().timeIntervalSince(ends)
        #expect(late > -0.5, "hidden \(late) s after the share's end: never before it")
        #expect(try server.operate("live", "list", "samriv").isEmpty, "an ended share is not listed")
    }

    @Test func badRequestsNameTheFieldAndHiddenPeopleAnswerAsUnknown() async throws {
        let server = try ServerFixture.shared.get()
        try server.operate("users", "add", "lsa", "--name", "Lsa Test")
        try server.operate("users", "add", "lsb", "--name", "Lsb Test")
        try server.operate("users", "add", "lsc", "--name", "Lsc Test")
        try server.operate("friends", "add", "lsa", "lsb")
        let (a, c) = (try server.operate("users", "token", "lsa"), try server.operate("users", "token", "lsc"))
        _ = try await server.fetch("/v1/me/blocks/lsa", method: "POST", token: c)
        let cases: [([String: Any], Int, String?)] = [
            (["friend": "lsb", "duration": "2h"], 400, "duration"), (["friend": "lsb"], 400, "duration"),
            (["friend": "LSB", "duration": "1h"], 400, "friend"), (["friend": "lsb", "duration": "1h", "x": 1], 400, "x"),
            (["friend": "lsa", "duration": "1h"], 400, "friend"), (["friend": "samriv", "duration": "1h"], 409, nil),
        ]
        for (payload, status, field) in cases {
            let answer = try await server.fetch("/v1/me/live-shares", method: "POST", body: body(payload), token: a)
            let error = try json(answer.2)
            #expect(answer.0 == status && error["field"] as? String == field, "\(payload): \(answer.0)")
        }
        let listed = try json(try await server.fetch("/v1/me/live-shares", token: a).2)["shares"] as? [Any]
        #expect(listed?.isEmpty == true, "refusals changed nothing")
        let blocker = try await server.fetch("/v1/me/live-shares", method: "POST", body: body(["friend": "lsc", "duration": "1h"]), token: a)
        let unknown = try await server.fetch("/v1/me/live-shares", method: "POST", body: body(["friend": "lsd", "duration": "1h"]), token: a)
        #expect(blocker.0 == 404 && String(decoding: blocker.2, as: UTF8.self).replacingOccurrences(of: "lsc", with: "lsd") == String(decoding: unknown.2, as: UTF8.self))
        let patch = try await server.fetch("/v1/me/live-shares/lsb", method: "PATCH", body: body(["paused": "yes"]), token: a)
        let patchError = try json(patch.2)
        #expect(patch.0 == 400 && patchError["field"] as? String == "paused")
        // A friend with no share running, a blocker and an unknown id answer alike, naming the path's id.
        let none = try await server.fetch("/v1/me/live-shares/lsb", method: "PATCH", body: body(["paused": true]), token: a)
        let noneError = try json(none.2)
        #expect(none.0 == 404 && noneError["parameter"] as? String == "id", "no share running")
        let noneBlocker = try await server.fetch("/v1/me/live-shares/lsc", method: "DELETE", token: a)
        let noneUnknown = try await server.fetch("/v1/me/live-shares/lsd", method: "DELETE", token: a)
        #expect(noneBlocker.0 == 404 && String(decoding: noneBlocker.2, as: UTF8.self).replacingOccurrences(of: "lsc", with: "lsd") == String(decoding: noneUnknown.2, as: UTF8.self))
        #expect(try await server.fetch("/v1/me/live-shares/lsb%00x", method: "DELETE", token: a).0 == 400, "an encoded NUL is refused, not cut")
        #expect(try await server.fetch("/v1/me/live-shares/lsb", method: "PUT", token: a).0 == 405)
    }
}
