import Foundation
import GeoCore
import Testing
@testable import MapServer

/// Request bodies decoded as `Decodable`: each refusal is a `BadField` of the document (the 400 body names it as
/// `field`), in the words the hand-made `[String: Any]` reader used (`ids` now says "an array", not "an array of
/// strings").
@Suite("Request bodies name the field at fault")
struct JSONBodyTests {
    private func refusal<Body: Decodable>(_ type: Body.Type, _ text: String) -> BadField? {
        do {
            _ = try JSONBody.decode(type, from: Array(text.utf8))
            return nil
        } catch {
            return error as? BadField
        }
    }

    @Test(arguments: [
        ("{", "body", "must be a JSON object (malformed JSON)"), ("[1]", "body", "must be a JSON object"), ("\"x\"", "body", "must be a JSON object"),
        ("{\"lat\": true, \"lon\": 0, \"accuracyMeters\": 5}", "lat", "must be a number"),
        ("{\"lat\": \"40\", \"lon\": 0, \"accuracyMeters\": 5}", "lat", "must be a number"),
        ("{\"lat\": 40, \"lon\": null, \"accuracyMeters\": 5}", "lon", "is required"),
        ("{\"lat\": 40, \"lon\": 0}", "accuracyMeters", "is required"),
        ("{\"lat\": 40, \"lon\": 0, \"accuracyMeters\": 5, \"place\": 3}", "place", "must be a string"),
        ("{\"zz\": 1, \"speed\": 3, \"lat\": 40}", "speed", "unknown field; allowed: lat, lon, accuracyMeters, at, place, activity, speedMetersPerSecond"),
        ("{\"lon\": 0, \"accuracyMeters\": 5, \"at\": \"yesterday\"}", "at", "must be an ISO 8601 time such as \(ISO8601Time.example)"),
    ])
    func locations(body: String, field: String, message: String) throws {
        let refused = try #require(refusal(MeBodies.Location.self, body))
        #expect(refused.place == .document && refused.field == field && refused.message == message, "\(refused)")
    }

    /// Nesting past the bound is refused before Foundation reads the body: `[` 513 times (its own limit reached at the
    /// last byte) stopped the process inside Foundation's reader; a closed document one level too deep, and one whose
    /// brackets are inside a string, show where the bound lies.
    @Test func bodiesNestedTooDeepAreRefusedBeforeAnyReaderSeesThem() throws {
        let tooDeep = "nests arrays and objects more than \(JSONBody.maximumDepth) deep"
        for text in [String(repeating: "[", count: 513), String(repeating: "[", count: 512) + "{\"a\":",
                     "{\"lat\": " + String(repeating: "[", count: JSONBody.maximumDepth) + String(repeating: "]", count: JSONBody.maximumDepth) + "}"] {
            let refused = try #require(refusal(MeBodies.Location.self, text))
            #expect(refused.field == "body" && refused.message == tooDeep, "\(text.prefix(40)): \(refused)")
        }
        let withinBound = "{\"lat\": " + String(repeating: "[", count: JSONBody.maximumDepth - 1) + String(repeating: "]", count: JSONBody.maximumDepth - 1) + "}"
        #expect(try #require(refusal(MeBodies.Location.self, withinBound)).message != tooDeep)
        let inAString = "{\"lat\": 40, \"lon\": 0, \"accuracyMeters\": 5, \"place\": \"" + String(repeating: "[", count: 600) + "\\\"{\"}"
        #expect(try JSONBody.decode(MeBodies.Location.self, from: Array(inAString.utf8)).place?.hasPrefix("[[[") == true)
    }

    @Test func aValidLocationKeepsItsValues() throws {
        let body = try JSONBody.decode(MeBodies.Location.self, from: Array("{\"lat\": 40.5, \"lon\": -73, \"accuracyMeters\": 5, \"place\": null}".utf8))
        #expect(body.lat == 40.5 && body.lon == -73 && body.accuracyMeters == 5 && body.place == nil && body.at == nil)
    }

    @Test(arguments: [
        ("{\"lat\": 95, \"lon\": 0}", "lat"), ("{\"lat\": 0, \"lon\": 181}", "lon"), ("{\"lon\": 0}", "lat"), ("{\"lat\": 0, \"lon\": 0, \"weight\": 1}", "weight"),
        ("{\"lat\": 95, \"lon\": 0, \"at\": \"soon\"}", "lat"),
    ])
    func snaps(body: String, field: String) throws {
        #expect(try #require(refusal(MeBodies.Snap.self, body)).field == field)
    }

    @Test(arguments: [
        ("{}", "body", "needs ghost, audience or both"), ("{\"ghost\": true}", "ghost", "must be a string"),
        ("{\"audience\": 3}", "audience", "must be an object"), ("{\"audience\": {}}", "audience.mode", "is required"),
        ("{\"audience\": {\"mode\": \"all\", \"who\": 1}}", "audience.who", "unknown field; allowed: mode, ids"),
        ("{\"audience\": {\"mode\": \"all\", \"ids\": \"a\"}}", "audience.ids", "must be an array"),
        ("{\"audience\": {\"mode\": \"all\", \"ids\": [\"a\", 2]}}", "audience.ids[1]", "must be a string"),
        ("{\"audience\": {\"mode\": \"all\", \"ids\": [\"a\", null]}}", "audience.ids[1]", "must be a string"),
    ])
    func sharing(body: String, field: String, message: String) throws {
        let refused = try #require(refusal(MeBodies.Sharing.self, body))
        #expect(refused.place == .document && refused.field == field && refused.message == message, "\(refused)")
    }

    /// Bodies Swift decodes itself (`ClosedBody`) refuse what their keys do not name, as the hand-read ones do, and
    /// keep what they do.
    @Test(arguments: [
        ("{\"friend\": \"a\", \"duration\": \"1h\", \"until\": 1}", "until", "unknown field; allowed: friend, duration"),
        ("{\"friend\": \"a\"}", "duration", "is required"), ("{\"friend\": 3, \"duration\": \"1h\"}", "friend", "must be a string"),
        ("[]", "body", "must be a JSON object"),
    ])
    func liveShareStarts(body: String, field: String, message: String) throws {
        let refused = try #require(refusal(MapAPI.LiveShareStart.self, body))
        #expect(refused.place == .document && refused.field == field && refused.message == message, "\(refused)")
        let kept = try JSONBody.decode(MapAPI.LiveShareStart.self, from: Array("{\"duration\": \"8h\", \"friend\": \"b\"}".utf8))
        #expect(kept.friend == "b" && kept.duration == "8h")
    }

    /// A key named twice is refused wherever it is, spelled the same or escaped (`\u0061` is `a`); the same key in two
    /// objects, or a repeated value, is not a repeat.
    @Test(arguments: [
        ("{\"lat\": 40, \"lon\": 0, \"accuracyMeters\": 5, \"lat\": 41}", "lat"),
        ("{\"lat\": 40, \"lon\": 0, \"accuracyMeters\": 5, \"l\\u0061t\": 41}", "lat"),
        ("{\"ghost\": \"off\", \"audience\": {\"mode\": \"all\", \"ids\": [], \"mode\": \"all\"}}", "audience.mode"),
    ])
    func aRepeatedKeyIsRefusedNamingIt(body: String, field: String) throws {
        let refused = try #require(field.hasPrefix("audience") ? refusal(MeBodies.Sharing.self, body) : refusal(MeBodies.Location.self, body))
        #expect(refused.place == .document && refused.field == field && refused.message == "appears more than once", "\(refused)")
    }

    @Test func theSameKeyInTwoObjectsOrARepeatedValueIsNoRepeat() throws {
        let body = "{\"ghost\": \"off\", \"audience\": {\"mode\": \"all\", \"ids\": [\"ghost\", \"ghost\"]}}"
        #expect(refusal(MeBodies.Sharing.self, body) == nil)
    }
}
