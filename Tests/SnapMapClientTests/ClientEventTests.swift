import Foundation
import ServerTestSupport
import SnapMapClient
import Testing

/// The event stream through `SnapMapClient`, and the two calls that end a session, against a live server.
@Suite("SnapMapClient's events and sessions", .serialized)
struct ClientEventTests {
    /// The next event `where` accepts, skipping others (the stream may restate what it had to say).
    static func next(_ events: inout AsyncThrowingStream<FriendEvent, any Error>.AsyncIterator,
                     where accepts: (FriendEvent) -> Bool) async throws -> FriendEvent? {
        while let event = try await events.next() {
            if accepts(event) { return event }
        }
        return nil
    }

    /// A bound, not a timing: under the whole suite's load its own server's start alone has taken a minute.
    @Test(.timeLimit(.minutes(5))) func eventsArriveTypedAndASignedOutStreamEndsUnauthorized() async throws {
        let server = try ServerFixture()
        let sam = SnapMapClient(baseURL: server.base, token: try server.operate("users", "token", "samriv"))
        let jordan = SnapMapClient(baseURL: server.base, token: try server.operate("users", "token", "jordan"))
        var events = sam.events(reconnectDelay: 0.2).makeAsyncIterator()
        guard case .ready(let friends)? = try await events.next() else { Issue.record("the stream opens with ready"); return }
        #expect(friends.count == 8 && friends.contains { $0.id == "jordan" })
        try await jordan.updateLocation(Location(lat: 40.7152, lon: -73.9661, accuracyMeters: 8))
        let moved = try await Self.next(&events) { if case .move(let friend) = $0 { friend.id == "jordan" } else { false } }
        guard case .move(let friend)? = moved else { Issue.record("Jordan's move arrives"); return }
        #expect(friend.lat == 40.7152 && friend.lon == -73.9661 && friends.first { $0.id == "jordan" }?.name == friend.name)
        _ = try await jordan.updateSharing(SharingChange(ghost: .untilOff))
        #expect(try await Self.next(&events) { if case .disappear = $0 { true } else { false } } == .disappear(id: "jordan"))
        try await sam.signOut()
        // The server ends the stream; the client opens it again and is refused: the sequence ends with the reason.
        do {
            while try await events.next() != nil {}
            Issue.record("the stream ended without saying why")
        } catch {
            #expect(error as? SnapMapError == .unauthorized)
        }
        #expect(try await SnapMapClient(baseURL: server.base, token: server.token).friends().count >= 8, "Sam's other phone is still signed in")
    }

    @Test(.timeLimit(.minutes(2))) func aStreamRefusedForNowIsOpenedAgainWhenThereIsRoom() async throws {
        let server = try ServerFixture.shared.get()
        let phone = try server.operate("users", "token", "maya")
        // Another phone of Maya's holds every stream a person may have open: the client's is refused (429) ...
        let held = try (0..<8).map { _ in try EventStream(server: server, token: phone) }
        for stream in held { #expect(stream.read(until: "event: ready")) }
        let maya = SnapMapClient(baseURL: server.base, token: try server.operate("users", "token", "maya"))
        var events = maya.events(reconnectDelay: 0.2).makeAsyncIterator()
        // ... until that phone signs out, which ends its streams; then the client's next try is let in.
        try await SnapMapClient(baseURL: server.base, token: phone).signOut()
        for stream in held { #expect(stream.waitForEnd(timeout: 30)) }
        guard case .ready? = try await events.next() else { Issue.record("the stream opens once there is room"); return }
    }

    @Test func deletingTheAccountSignsEveryPhoneOut() async throws {
        let server = try ServerFixture.shared.get()
        try server.operate("users", "add", "probe32", "--name", "Probe")
        let probe = SnapMapClient(baseURL: server.base, token: try server.operate("users", "token", "probe32"))
        #expect(try await probe.friends().isEmpty)
        try await probe.deleteAccount()
        #expect(await ClientTests.error { _ = try await probe.friends() } == .unauthorized)
    }
}
