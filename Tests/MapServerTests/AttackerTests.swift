import Foundation
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The attacker's suite: several accounts on a server of their own, trying what a hostile user would try with
/// the API and the operator's tools. Each test names the promise it breaks if it fails.
@Suite("Privacy under attack", .serialized)
struct AttackerTests {
    static let capturedAt = ISO8601DateFormatter().date(from: "2026-11-29T18:00:00Z")!

    private func body(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    /// A revoked token's open stream ends within a second, whoever revokes it: the operator's CLI (another
    /// process, heard through the store's change log) or the phone itself (`DELETE /v1/me/session`).
    @Test func revokingATokenEndsItsOpenStreamsAtOnce() async throws {
        let server = try ServerFixture()
        let secondPhone = try server.operate("users", "token", "samriv")
        let stolen = try EventStream(server: server, token: server.token)
        let kept = try EventStream(server: server, token: secondPhone)
        #expect(stolen.read(until: "event: ready") && kept.read(until: "event: ready"))
        let signOut = try await server.fetch("/v1/me/session", method: "DELETE")
        #expect(signOut.0 == 204)
        #expect(stolen.waitForEnd(timeout: 1), "the signed-out phone's stream ended")
        #expect(try await server.fetch("/v1/me/layout.json").0 == 401)
        #expect(try await server.fetch("/v1/me/layout.json", token: secondPhone).0 == 200, "the other phone is still signed in")
        let reopened = try EventStream(server: server, token: secondPhone)
        #expect(reopened.read(until: "event: ready"), "and can hold a stream")
        let started = Date()
        try server.operate("users", "revoke", "samriv")
        #expect(reopened.waitForEnd(timeout: 1.5), "the CLI's revocation ended the stream")
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 1.5, "ended \(elapsed) s after the revoke command started")
        #expect(try await server.fetch("/v1/me/layout.json", token: secondPhone).0 == 401)
    }

    /// Deleting an account: the person's own streams end, friends' streams drop them at once, and their id then
    /// answers every question exactly as an id that never existed.
    @Test func aDeletedAccountLeavesAndItsIdAnswersAsUnknown() async throws {
        let server = try ServerFixture()
        let jordan = try server.operate("users", "token", "jordan")
        let samEvents = try EventStream(server: server, token: server.token)
        let jordanEvents = try EventStream(server: server, token: jordan)
        #expect(samEvents.read(until: "event: ready") && samEvents.received.contains("\"id\":\"jordan\""))
        #expect(jordanEvents.read(until: "event: ready"))
        #expect(try await server.fetch("/v1/me", method: "DELETE", token: jordan).0 == 204)
        #expect(samEvents.read(until: "\"id\":\"jordan\"}", timeout: 1), "Sam's stream dropped Jordan at once")
        #expect(samEvents.received.contains("event: disappear"))
        #expect(jordanEvents.waitForEnd(timeout: 1), "Jordan's own stream ended")
        #expect(try await server.fetch("/v1/me/layout.json", token: jordan).0 == 401)
        try await expectAlike(server, "jordan", "jordyx")
        try server.operate("users", "remove", "maya")
        #expect(samEvents.read(until: "{\"id\":\"maya\"}", timeout: 1), "the operator's removal (another process) reached Sam's stream at once: \(samEvents.received.suffix(300))")
        try await expectAlike(server, "maya", "mayx")
        try await expectAlike(server, "jordan", "jordyx")
    }

    /// A person who blocked you answers every endpoint that takes an id exactly as an id that does not exist:
    /// status, headers (but the date) and body.
    @Test func aBlockerAnswersExactlyAsAnUnknownId() async throws {
        let server = try ServerFixture()
        let jordan = try server.operate("users", "token", "jordan")
        #expect(try await server.fetch("/v1/me/blocks/samriv", method: "POST", token: jordan).0 == 204)
        try await expectAlike(server, "jordan", "jordyx")
        _ = try server.operate("users", "list")
        try await expectAlike(server, "jordan", "jordyx")
        #expect(try await server.fetch("/v1/me/blocks/samriv", method: "DELETE", token: jordan).0 == 204)
        #expect(try await server.fetch("/v1/me/blocks/jordan", method: "POST").0 == 204, "Sam can block Jordan now")
    }

    /// Every request about `other` is answered as about `unknown` (with the ids swapped).
    private func expectAlike(_ server: ServerFixture, _ other: String, _ unknown: String) async throws {
        let requests: [(String, String)] = [
            ("POST", "/v1/me/friends/ID"), ("DELETE", "/v1/me/friends/ID"), ("POST", "/v1/me/blocks/ID"), ("DELETE", "/v1/me/blocks/ID"),
            ("GET", "/v1/me/zoom?friend=ID"), ("GET", "/v1/me/frame.png?selected=ID&at-selection=true"),
            ("GET", "/v1/me/layout.json?selected=ID"), ("GET", "/v1/me/fly.png?friend=ID"), ("GET", "/v1/me/hit?at=100,100&selected=ID"),
        ]
        for (method, path) in requests {
            let seen = try await server.fetch(path.replacingOccurrences(of: "ID", with: other), method: method)
            let nobody = try await server.fetch(path.replacingOccurrences(of: "ID", with: unknown), method: method)
            #expect(seen.0 == nobody.0, "\(method) \(path): \(seen.0) against \(nobody.0)")
            #expect(seen.1.filter { $0.key != "date" } == nobody.1.filter { $0.key != "date" }, "\(method) \(path) headers")
            #expect(String(decoding: seen.2, as: UTF8.self).replacingOccurrences(of: other, with: unknown) == String(decoding: nobody.2, as: UTF8.self),
                    "\(method) \(path) body")
        }
    }

    /// Changes made outside the serving process reach open streams at once, and a fix leaves the map at the
    /// instant it turns 24 hours old, not at the next sweep.
    @Test func changesFromTheCLIAndTimeReachStreamsAtOnce() async throws {
        let started = Date()
        let server = try ServerFixture()
        let running = Date()
        let events = try EventStream(server: server, token: server.token)
        #expect(events.read(until: "event: ready"))
        try server.operate("locate", "jordan", "--at", "40.7166,-73.9622", "--clock", ISO8601DateFormatter().string(from: Self.capturedAt.addingTimeInterval(Date().timeIntervalSince(started))))
        #expect(events.read(until: "40.7166", timeout: 1), "the CLI's fix reached the stream")
        try server.operate("sharing", "jordan", "--ghost", "untilOff")
        #expect(events.read(until: "event: disappear", timeout: 1), "a friend who hid left the stream at once")
        try server.operate("sharing", "jordan", "--ghost", "off")
        #expect(events.read(until: "event: appear", timeout: 1))
        // The server's clock is the scene's, started between `started` and `running`: a fix taken 24 h less 3 s
        // before the server's now (whole seconds, as the command line writes times) leaves the map 2 to 3 s later.
        let serverNow = Self.capturedAt.addingTimeInterval(Date().timeIntervalSince(started))
        let taken = Date(timeIntervalSince1970: (serverNow.timeIntervalSince1970 - 86400 + 3).rounded(.down))
        try server.operate("users", "add", "tess", "--name", "Tess Test")
        try server.operate("friends", "add", "samriv", "tess")
        try server.operate("sharing", "tess", "--ghost", "off")
        try server.operate("locate", "tess", "--at", "40.7170,-73.9600", "--taken", ISO8601DateFormatter().string(from: taken),
                           "--clock", ISO8601DateFormatter().string(from: serverNow))
        #expect(events.read(until: "\"id\":\"tess\"", timeout: 1), "Tess's fix reached the stream")
        let expiry = Date().addingTimeInterval(taken.addingTimeInterval(86400).timeIntervalSince(Self.capturedAt.addingTimeInterval(Date().timeIntervalSince(started))))
        #expect(events.read(until: "{\"id\":\"tess\"}", timeout: 8), "Tess left when her fix turned 24 hours old")
        // The server's clock started between `started` and `running`: the instant is known within that span.
        let late = Date().timeIntervalSince(expiry)
        let span = running.timeIntervalSince(started)
        #expect(late > -0.5 && late < span + 1, "left \(late) s after the earliest instant her fix could turn 24 hours old (span \(span) s)")
    }
}

/// Open streams after each change a friend can make: the friend leaves at once, and from then on their moves send
/// the viewer nothing, exactly as a stranger's do; and two servers on one SQLite file hear each other's changes.
@Suite("Privacy under attack: open streams", .serialized)
struct StreamAttackerTests {
    private func body(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    @Test(arguments: ["block", "unfriend", "ghost", "audience", "delete"])
    func aFriendWhoHidesSendsTheOpenStreamNothingMore(change: String) async throws {
        let server = try ServerFixture()
        let jordan = try server.operate("users", "token", "jordan")
        try server.operate("users", "add", "stranger", "--name", "Stranger Danger")
        let stranger = try server.operate("users", "token", "stranger")
        let events = try EventStream(server: server, token: server.token)
        #expect(events.read(until: "event: ready") && events.received.contains("\"id\":\"jordan\""))
        let (method, path, payload): (String, String, [String: Any]?) = switch change {
        case "block": ("POST", "/v1/me/blocks/samriv", nil)
        case "unfriend": ("DELETE", "/v1/me/friends/samriv", nil)
        case "ghost": ("PUT", "/v1/me/sharing", ["ghost": "untilOff"])
        case "audience": ("PUT", "/v1/me/sharing", ["audience": ["mode": "friendsExcept", "ids": ["samriv"]]])
        default: ("DELETE", "/v1/me", nil)
        }
        let answer = try await server.fetch(path, method: method, body: try payload.map(body), token: jordan)
        #expect((200..<300).contains(answer.0), "\(change): \(answer.0)")
        #expect(events.read(until: "{\"id\":\"jordan\"}", timeout: 1), "\(change): Jordan left the stream at once")
        let before = events.received
        for (index, token) in [jordan, stranger].enumerated() {
            _ = try await server.fetch("/v1/me/location", method: "PUT", body: body(["lat": 40.7150 + Double(index) / 1000, "lon": -73.9610, "accuracyMeters": 7]),
                                       token: token)
        }
        try server.operate("users", "list")
        #expect(!events.read(until: "40.71", timeout: 0.7) || events.received.hasPrefix(before) && !events.received.dropFirst(before.count).contains("40.71"),
                "\(change): nothing more about Jordan or a stranger")
        let after = events.received.dropFirst(before.count)
        #expect(!after.contains("jordan") && !after.contains("stranger") && !after.contains("40.71"), "\(change): \(after)")
    }

    /// A second server on the same SQLite file: a move through one reaches the other's streams at once.
    @Test func twoServersOnOneFileHearEachOther() async throws {
        let first = try ServerFixture()
        let path: String = try #require(first.databasePath)
        let second = try ServerFixture(database: path)
        let jordan = try first.operate("users", "token", "jordan")
        let events = try EventStream(server: second, token: second.token)
        #expect(events.read(until: "event: ready"))
        let moved = try await first.fetch("/v1/me/location", method: "PUT", body: body(["lat": 40.7161, "lon": -73.9633, "accuracyMeters": 6]), token: jordan)
        #expect(moved.0 == 204)
        #expect(events.read(until: "40.7161", timeout: 1), "the move through the first server reached the second's stream")
    }
}
