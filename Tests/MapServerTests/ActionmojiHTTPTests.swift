import Foundation
import ServerTestSupport
import Testing

/// Actionmoji's inputs over HTTP and the command line: a fix's activity and speed, and the birthday friends see.
@Suite("Actionmoji inputs over HTTP", .serialized)
struct ActionmojiHTTPTests {
    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func body(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    @Test func aFixCarriesItsActivityAndSpeedAndBadOnesAreNamed() async throws {
        let server = try ServerFixture.shared.get()
        try server.operate("users", "add", "ama", "--name", "Ama Test")
        let token = try server.operate("users", "token", "ama")
        let fix: [String: Any] = ["lat": 40.7185, "lon": -73.9627, "accuracyMeters": 8]
        for (field, value, allowed) in [("activity", "swimming" as Any, "automotive"), ("activity", 3 as Any, "string"),
                                        ("speedMetersPerSecond", 400.5 as Any, "400"), ("speedMetersPerSecond", -1 as Any, "0")] {
            let answer = try await server.fetch("/v1/me/location", method: "PUT", body: body(fix.merging([field: value]) { $1 }), token: token)
            let error = try json(answer.2)
            #expect(answer.0 == 400 && error["field"] as? String == field, "\(field) \(value)")
            #expect((error["error"] as? String ?? "").contains(allowed), "\(error)")
        }
        let moving = fix.merging(["activity": "automotive", "speedMetersPerSecond": 12.5, "place": NSNull()]) { $1 }
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: body(moving), token: token).0 == 204)
        #expect(try await server.fetch("/v1/me/location", method: "PUT", body: body(fix.merging(["activity": NSNull()]) { $1 }), token: token).0 == 204)
        #expect(try server.operate("locate", "ama", "--at", "40.7190,-73.9620", "--activity", "flying", "--speed", "250").hasPrefix("ama is at"))
        #expect(throws: (any Error).self) { try server.operate("locate", "ama", "--at", "40.7190,-73.9620", "--activity", "gliding") }
        #expect(throws: (any Error).self) { try server.operate("locate", "ama", "--at", "40.7190,-73.9620", "--speed", "401") }
    }

    @Test func aBirthdayIsSetByItsOwnerAndSeenByFriendsOnly() async throws {
        let server = try ServerFixture.shared.get()
        for id in ["bea", "cal", "dee"] { try server.operate("users", "add", id, "--name", id.capitalized + " Test") }
        try server.operate("friends", "add", "bea", "cal")
        let (bea, cal, dee) = (try server.operate("users", "token", "bea"), try server.operate("users", "token", "cal"), try server.operate("users", "token", "dee"))
        #expect(try await server.fetch("/v1/me/friends/bea", method: "POST", token: dee).0 == 200, "dee asks; bea has not accepted")

        let none = try await server.fetch("/v1/me/birthday", token: bea)
        #expect(none.0 == 200 && String(decoding: none.2, as: UTF8.self) == #"{"birthday":null}"#)
        for (text, field) in [("13-01", "birthday"), ("02-30", "birthday"), ("July 4", "birthday"), ("0-0", "birthday")] {
            let bad = try await server.fetch("/v1/me/birthday", method: "PUT", body: body(["birthday": text]), token: bea)
            let error = try json(bad.2)
            #expect(bad.0 == 400 && error["field"] as? String == field, "\(text)")
        }
        #expect(try await server.fetch("/v1/me/birthday", method: "PUT", body: body([:]), token: bea).0 == 400, "the field is required")
        #expect(String(decoding: try await server.fetch("/v1/me/birthday", token: bea).2, as: UTF8.self) == #"{"birthday":null}"#, "bad ones changed nothing")

        let set = try await server.fetch("/v1/me/birthday", method: "PUT", body: body(["birthday": "7-4"]), token: bea)
        #expect(set.0 == 200 && String(decoding: set.2, as: UTF8.self) == #"{"birthday":"07-04"}"#)
        func birthdays(_ token: String) async throws -> [String: String] {
            let list = try #require(try json(try await server.fetch("/v1/me/friends", token: token).2)["friends"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: list.compactMap { entry in (entry["birthday"] as? String).map { (entry["id"] as? String ?? "", $0) } })
        }
        #expect(try await birthdays(cal) == ["bea": "07-04"], "a friend sees it")
        #expect(try await birthdays(dee).isEmpty, "someone who only asked does not")
        #expect(try server.operate("birthday", "bea") == "bea: birthday 07-04")
        #expect(try server.operate("birthday", "bea", "--set", "none") == "bea: birthday none")
        #expect(try await birthdays(cal).isEmpty)
        #expect(try server.operate("birthday", "cal", "--set", "02-29") == "cal: birthday 02-29")
        #expect(try await birthdays(bea) == ["cal": "02-29"])
        #expect(throws: (any Error).self) { try server.operate("birthday", "cal", "--set", "02-30") }
        #expect(try await server.fetch("/v1/me/birthday", method: "PUT", body: body(["birthday": NSNull()]), token: cal).0 == 200)
        #expect(try await birthdays(bea).isEmpty, "null clears it")
        #expect(try await server.fetch("/v1/me/birthday", method: "DELETE", token: cal).0 == 405)
    }
}
