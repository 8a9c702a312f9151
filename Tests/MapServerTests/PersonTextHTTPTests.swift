import Foundation
import ServerTestSupport
import Testing

@Suite("The text rule over HTTP")
struct PersonTextHTTPTests {
    /// A place with a bidi override, a line separator, U+0085 or a C1 control is a 400 naming `place` and the
    /// character, as the same text in a name is; an empty place is no place.
    @Test func aHostilePlaceIsRefusedNamingTheFieldAndTheCharacter() async throws {
        let server = try ServerFixture.shared.get()
        let id = "txt-" + UUID().uuidString.prefix(8).lowercased()
        try server.operate("users", "add", id, "--name", "Text Test")
        let token = try server.operate("users", "token", id)
        for (place, code) in [("Domino\u{202E}Park", "U+202E"), ("Domino\u{2028}Park", "U+2028"), ("Domino\u{0085}Park", "U+0085"),
                              ("Domino\u{009B}Park", "U+009B"), ("Domino\u{2067}Park", "U+2067")] {
            let body = try JSONSerialization.data(withJSONObject: ["lat": 40.71, "lon": -73.95, "accuracyMeters": 8, "place": place])
            let (status, _, answer) = try await server.fetch("/v1/me/location", method: "PUT", body: body, token: token)
            let error = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: String])
            #expect(status == 400 && error["field"] == "place" && error["error"]?.contains(code) == true, "\(error)")
        }
        let empty = try JSONSerialization.data(withJSONObject: ["lat": 40.71, "lon": -73.95, "accuracyMeters": 8, "place": ""])
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: empty, token: token).0 == 204)
    }
}
