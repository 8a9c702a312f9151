import Foundation
import ServerTestSupport
import Testing

/// A URL whose path or parameters hold an encoded NUL or other control character is refused whole: MHD decodes
/// them into C strings, where `%00` once cut `friends/zed%00junk` to `friends/zed` and unfriended zed.
@Suite("Hostile requests: encoded control characters")
struct EncodedControlTests {
    /// A person with one friend, made for the test; their token and the friend's id.
    private func personWithAFriend(_ server: ServerFixture) throws -> (token: String, friend: String) {
        let me = "ctl-" + UUID().uuidString.prefix(8).lowercased()
        let friend = "ctf-" + UUID().uuidString.prefix(8).lowercased()
        try server.operate("users", "add", me, "--name", "Control Test")
        try server.operate("users", "add", friend, "--name", "Control Friend")
        try server.operate("friends", "add", me, friend)
        return (try server.operate("users", "token", me), friend)
    }

    private func friendIDs(_ server: ServerFixture, _ token: String) async throws -> [String] {
        let (_, _, body) = try await server.fetch("/v1/me/friends", token: token)
        let list = try #require(try JSONSerialization.jsonObject(with: body) as? [String: [[String: String]]])
        return (list["friends"] ?? []).compactMap { $0["id"] }
    }

    @Test(arguments: ["%00junk", "%00", "%0a", "%1f", "%7F"])
    func aControlCharacterInThePathChangesNothing(suffix: String) async throws {
        let server = try ServerFixture.shared.get()
        let (token, friend) = try personWithAFriend(server)
        let (status, _, body) = try await server.fetch("/v1/me/friends/\(friend)\(suffix)", method: "DELETE", token: token)
        #expect(status == 400, "\(suffix): \(String(decoding: body, as: UTF8.self))")
        #expect(try await friendIDs(server, token) == [friend], "\(suffix) left the friendship as it was")
    }

    @Test func aPathIsDecodedOnceSoAnEncodedPercentIsAPercent() async throws {
        let server = try ServerFixture.shared.get()
        let (token, friend) = try personWithAFriend(server)
        let (status, _, body) = try await server.fetch("/v1/me/friends/\(friend)%2500", method: "DELETE", token: token)
        let error = try #require(try JSONSerialization.jsonObject(with: body) as? [String: String])
        #expect(status == 400 && error["parameter"] == "id" && error["field"] == nil && error["error"]?.contains("\(friend)%00") == true, "\(error)")
        #expect(try await friendIDs(server, token) == [friend])
    }

    @Test func aControlCharacterInAParameterIsRefused() async throws {
        let server = try ServerFixture.shared.get()
        let (status, _, body) = try await server.fetch("/v1/me/layout.json?zoom=15%00junk")
        #expect(status == 400 && String(decoding: body, as: UTF8.self).contains("%00"))
        #expect(try await server.fetch("/v1/me/layout.json?zoom=15").0 == 200)
    }
}
