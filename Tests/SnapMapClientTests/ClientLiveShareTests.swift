import Foundation
import ServerTestSupport
import SnapMapClient
import Testing

/// Live Location through `SnapMapClient`: Jordan's phone shares with Sam while in Ghost Mode; Sam's stream and card
/// tell it, and pausing and stopping end it.
@Suite("SnapMapClient's Live Location", .serialized)
struct ClientLiveShareTests {
    @Test(.timeLimit(.minutes(5))) func aShareStartsPausesAndStopsThroughTheClient() async throws {
        let server = try ServerFixture()
        let sam = SnapMapClient(baseURL: server.base, token: server.token)
        let jordan = SnapMapClient(baseURL: server.base, token: try server.operate("users", "token", "jordan"))
        _ = try await jordan.updateSharing(SharingChange(ghost: .untilOff))
        var events = sam.events(reconnectDelay: 0.2).makeAsyncIterator()
        guard case .ready(let friends)? = try await events.next() else { Issue.record("the stream opens with ready"); return }
        #expect(!friends.contains { $0.id == "jordan" }, "Jordan is in Ghost Mode")
        let share = try await jordan.startLiveShare(with: "samriv", for: .oneHour)
        #expect(share.from == "jordan" && share.to == "samriv" && !share.paused
                && abs(share.until.timeIntervalSince(share.startedAt) - 3600) < 0.001)
        let started = try await ClientEventTests.next(&events) { if case .liveStarted = $0 { true } else { false } }
        #expect(started == .liveStarted(id: "jordan", until: share.until))
        let (samSees, jordanSees) = (try await sam.liveShares(), try await jordan.liveShares())
        #expect(samSees == [share] && jordanSees == [share])
        #expect(try await sam.layout(MapViewport(size: (393, 852), scale: 1), selected: "jordan", atSelection: true).value.card?.seen.hasPrefix("Live · until ") == true)
        let paused = try await jordan.pauseLiveShare(with: "samriv", paused: true)
        #expect(paused.paused && paused.until == share.until)
        #expect(try await ClientEventTests.next(&events) { if case .liveEnded = $0 { true } else { false } } == .liveEnded(id: "jordan"))
        #expect(try await ClientEventTests.next(&events) { if case .disappear = $0 { true } else { false } } == .disappear(id: "jordan"))
        #expect(try await jordan.pauseLiveShare(with: "samriv", paused: false) == share)
        try await jordan.stopLiveShare(with: "samriv")
        #expect(try await sam.liveShares().isEmpty)
        let again = await ClientTests.error { try await jordan.stopLiveShare(with: "samriv") }
        #expect({ if case .notFound? = again { true } else { false } }(), "no share to stop: \(String(describing: again))")
        #expect(await ClientTests.error { _ = try await jordan.startLiveShare(with: "samriv!", for: .eightHours) }?.named == "friend")
    }
}

/// Footsteps through `SnapMapClient`: a phone turns them on, walks, reads its GeoJSON and what it explored, and clears it.
@Suite("SnapMapClient's Footsteps", .serialized)
struct ClientFootstepsTests {
    @Test func footstepsAreKeptReadAndCleared() async throws {
        let server = try ServerFixture.shared.get()
        try server.operate("users", "add", "fsc", "--name", "Fsc Test")
        let phone = SnapMapClient(baseURL: server.base, token: try server.operate("users", "token", "fsc"))
        let (before, turnedOn) = (try await phone.footsteps(), try await phone.setFootsteps(on: true))
        #expect(!before.on && before.places == 0 && turnedOn.on && turnedOn.places == 0)
        try await phone.updateLocation(Location(lat: 40.7152, lon: -73.9661, accuracyMeters: 8))
        #expect(try await phone.footsteps().places == 1)
        let geoJSON = try #require(try JSONSerialization.jsonObject(with: try await phone.footstepsGeoJSON()) as? [String: Any])
        let point = (geoJSON["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any]
        #expect(point?["coordinates"] as? [Double] == [-73.9661, 40.7152])
        let explored = try await phone.explored()
        #expect(explored.radiusMeters == 50 && explored.neighbourhoods.first.map { $0.share > 0 && $0.text.hasPrefix("You have explored ") } == true,
                "\(explored)")
        try await phone.clearFootsteps()
        let cleared = try await phone.footsteps()
        #expect(cleared.on && cleared.places == 0)
        #expect(try await phone.explored().neighbourhoods.isEmpty)
    }
}
