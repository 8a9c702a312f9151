import Foundation
import ServerTestSupport
import Testing

extension ActionmojiHTTPTests {
    /// The layout names each pin's pose, from the fix its friend sent; the frame draws it (its bytes change).
    @Test func theLayoutNamesThePoseAndTheFrameDrawsIt() async throws {
        let server = try ServerFixture.shared.get()
        for id in ["vee", "fox"] { try server.operate("users", "add", id, "--name", id.capitalized + " Test") }
        try server.operate("friends", "add", "vee", "fox")
        try server.operate("sharing", "fox", "--ghost", "off")
        let (vee, fox) = (try server.operate("users", "token", "vee"), try server.operate("users", "token", "fox"))
        func pose() async throws -> (String?, Data) {
            let layout = try json(try await server.fetch("/v1/me/layout.json", token: vee).2)
            let pins = try #require(layout["pins"] as? [[String: Any]])
            let frame = try await server.fetch("/v1/me/frame.png", token: vee)
            return (pins.first { $0["id"] as? String == "fox" }?["pose"] as? String, frame.2)
        }
        let at: [String: Any] = ["lat": 40.7185, "lon": -73.9627, "accuracyMeters": 8]
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: body(at), token: fox).0 == 204)
        let (standing, still) = try await pose()
        #expect(standing == "standing")
        let driving = at.merging(["lat": 40.7186, "activity": "automotive", "speedMetersPerSecond": 11]) { $1 }
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: body(driving), token: fox).0 == 204)
        let (posed, drawn) = try await pose()
        #expect(posed == "driving")
        #expect(drawn != still, "the frame draws the car")
    }
}
