import Foundation
import ServerTestSupport
import SnapMapClient
import Testing

/// `SnapMapClient` against a real `snapmap serve --demo` (Sam signed in), every endpoint of the contract through it.
@Suite("SnapMapClient against a live server", .serialized)
struct ClientTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]

    private func isPNG(_ data: Data) -> Bool { data.starts(with: Self.png) }

    @Test func publicEndpointsAnswerAndRevalidate() async throws {
        let server = try ServerFixture.shared.get()
        let client = SnapMapClient(baseURL: server.base)
        let health = try await client.health()
        #expect(health.status == "ok" && health.version == SnapMapClient.version)
        for path in ["/openapi.json", "/tiles.json", "/vector.json", "/styles/snapmap.json"] {
            let first = try await client.document(path)
            let again = try await client.document(path)
            #expect(!first.notModified && again.notModified && again.value == first.value && first.tag != nil, "\(path)")
            #expect(try JSONSerialization.jsonObject(with: first.value) is [String: Any])
        }
        #expect(isPNG(try await client.tile(.base, z: 14, x: 4826, y: 6157).value))
        #expect(isPNG(try await client.tile(.base, z: 14, x: 4826, y: 6157, retina: true).value))
        #expect(isPNG(try await client.tile(.heat, z: 15, x: 9652, y: 12314).value))
        #expect(try await client.tile(.vector, z: 14, x: 4826, y: 6157).value.count > 100)
        #expect(try await client.tile(.base, z: 14, x: 4826, y: 6157).notModified)
        #expect(try await client.glyphs(fontStack: "Inter Bold", start: 0).count > 1000)
        #expect(isPNG(try await client.routeFrame("lucias", size: (200, 300), scale: 1).value))
        let halfway = try await client.routeState("sakura", progress: 0.5)
        #expect(halfway.progress == 0.5 && !halfway.arrived && halfway.drivenMeters > 0 && halfway.remainingMeters > 0)
        #expect(try await client.routeState("sakura", progress: 1).arrived)
        for path in ["/", "/leaflet.html", "/maplibre.html", "/static/viewer.js"] { #expect(try await client.file(path).count > 100, "\(path)") }
        #expect(await Self.error { _ = try await client.routeState("sakura", progress: 2) }?.named == "progress")
        // A screen with no room for the route above the sheet: the error names the size (it named none before).
        #expect(await Self.error { _ = try await client.routeFrame("lucias", size: (1, 1)) }?.named == "size")
    }

    @Test func theMapAnswersForTheSignedInViewerAndRevalidate() async throws {
        let server = try ServerFixture()
        let sam = SnapMapClient(baseURL: server.base, token: server.token)
        let jordan = SnapMapClient(baseURL: server.base, token: try server.operate("users", "token", "jordan"))
        let view = MapViewport(size: (393, 852), scale: 1)
        let layout = try await sam.layout(view)
        #expect(!layout.notModified && layout.value.pins.contains { $0.id == "jordan" })
        let again = try await sam.layout(view)
        #expect(again.notModified && again.value == layout.value)
        try await jordan.updateLocation(Location(lat: 40.7152, lon: -73.9661, accuracyMeters: 8, place: "Domino Park"))
        let moved = try await sam.layout(view)
        #expect(!moved.notModified && moved.value.pins.first { $0.id == "jordan" }?.coordinate == Coordinate(lat: 40.7152, lon: -73.9661))
        let selected = try await sam.layout(view, selected: "jordan", atSelection: true).value
        #expect(selected.selected == "jordan" && selected.card?.friend == "jordan" && selected.card?.deepLink.contains("jordan") == true)
        let frame = try await sam.frame(view)
        let frameAgain = try await sam.frame(view)
        #expect(isPNG(frame.value) && frameAgain.notModified && frameAgain.value == frame.value)
        #expect(isPNG(try await sam.frame(view, layers: ["base", "pins"], selected: "jordan", atSelection: true).value))
        // At Domino Park Jordan may share a bubble with Ava: a tap where he is drawn hits his pin or his group.
        let pin = try #require(moved.value.pins.first { $0.id == "jordan" && $0.visible })
        let group = moved.value.groups.first { $0.id == pin.groupId }
        let drawn = try #require(pin.groupId == nil ? pin.screenPoint : group?.screenPoint)
        let hit = try await sam.hit(x: drawn.x, y: drawn.y, view)
        #expect(pin.groupId == nil ? hit.kind == .pin && hit.id == "jordan" : hit.kind == .group && hit.members?.contains("jordan") == true)
        #expect(try await sam.hit(x: -1000, y: -1000, view).kind == .none)
        let zoom = try await sam.zoom(to: "jordan", view)
        #expect(zoom.target == "jordan" && zoom.camera.zoom >= 10 && !zoom.path.isEmpty)
        let fly = try await sam.fly(to: "jordan", fps: 30, MapViewport(size: (200, 400), scale: 1))
        #expect(isPNG(fly) && String(decoding: fly.prefix(200), as: UTF8.self).contains("acTL"), "an animated PNG")
        #expect(await Self.error { _ = try await sam.zoom(to: "nobody-here", view) }?.isNotFound == true)
        // A screen too short for the card: the error names the size (it named no parameter before).
        #expect(await Self.error { _ = try await sam.fly(to: "jordan", fps: 30, MapViewport(size: (120, 200), scale: 1)) }?.named == "size")
        #expect(await Self.error { _ = try await sam.zoom(to: "jordan", MapViewport(size: (120, 200))) }?.named == "size")
        #expect(await Self.error { _ = try await sam.layout(MapViewport(zoom: 40)) }?.named == "zoom")
    }

    @Test func friendsSharingAndWritesNameTheirFields() async throws {
        let server = try ServerFixture()
        let sam = SnapMapClient(baseURL: server.base, token: server.token)
        let friends = try await sam.friends()
        #expect(friends.contains { $0.id == "jordan" && $0.status == .friends })
        let sharing = try await sam.updateSharing(SharingChange(ghost: .threeHours, audience: Audience(mode: .friendsExcept, ids: ["maya"])))
        #expect(sharing.ghost == .threeHours && sharing.ghostUntil != nil && sharing.audience == Audience(mode: .friendsExcept, ids: ["maya"]))
        #expect(try await sam.sharing() == sharing)
        try await sam.removeFriend("jordan")
        #expect(try await sam.friends().allSatisfy { $0.id != "jordan" })
        let asked = try await sam.addFriend("jordan")
        #expect(asked.id == "jordan" && asked.status == .requested)
        try await sam.block("noah")
        #expect(try await sam.friends().allSatisfy { $0.id != "noah" })
        try await sam.unblock("noah")
        #expect(await Self.error { try await sam.unblock("noah") }?.isNotFound == true)
        #expect(await Self.error { _ = try await sam.addFriend("samriv") }?.named == "id")
        try await sam.postSnap(Snap(lat: 40.7207, lon: -73.9515))
        #expect(await Self.error { try await sam.postSnap(Snap(lat: 91, lon: 0)) }?.named == "lat")
        let late = Location(lat: 40.72, lon: -73.95, accuracyMeters: 5, at: Date(timeIntervalSinceNow: 400 * 86_400))
        #expect(await Self.error { try await sam.updateLocation(late) }?.named == "at")
        #expect(await Self.error { try await sam.updateLocation(Location(lat: 40.72, lon: 200, accuracyMeters: 5)) }?.named == "lon")
    }

    @Test func retriesWaitOutRetryAfterAndOnlyThenThrow() async throws {
        let server = try ServerFixture.shared.get()
        // Someone nobody on the shared server is friends with: their moves change no one's map.
        try server.operate("users", "add", "rate32", "--name", "Rate")
        let token = try server.operate("users", "token", "rate32")
        let impatient = SnapMapClient(baseURL: server.base, token: token, retries: 0)
        let fix = Location(lat: 40.7172, lon: -73.9571, accuracyMeters: 10)
        // 60 at once outrun the bucket (bursts of 20, 10 a second) however busy the machine: some are refused.
        let refused = await Self.send(60, impatient, fix)
        #expect(refused.contains { if case .rateLimited(let seconds) = $0 { seconds >= 1 } else { false } }, "\(refused)")
        let patient = SnapMapClient(baseURL: server.base, token: token, retries: 4)
        let unlanded = await Self.send(30, patient, fix)
        #expect(unlanded.isEmpty, "every update lands after the waits Retry-After asked for: \(unlanded)")
    }

    /// Sends `count` updates at once; answers the errors.
    static func send(_ count: Int, _ client: SnapMapClient, _ fix: Location) async -> [SnapMapError] {
        await withTaskGroup(of: SnapMapError?.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do { try await client.updateLocation(fix); return nil } catch { return error as? SnapMapError ?? .malformed("\(error)") }
                }
            }
            return await group.reduce(into: []) { if let error = $1 { $0.append(error) } }
        }
    }

    /// The error `body` throws (nil when it throws none).
    static func error(_ body: () async throws -> Void) async -> SnapMapError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? SnapMapError ?? .malformed("\(error)")
        }
    }
}

extension SnapMapError {
    /// The field or parameter a 400 named.
    var named: String? {
        if case .badRequest(let field, let parameter, _) = self { return field ?? parameter }
        return nil
    }

    var isNotFound: Bool {
        if case .notFound = self { return true }
        return false
    }
}
