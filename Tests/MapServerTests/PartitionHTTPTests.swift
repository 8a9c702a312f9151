import Foundation
import LiveMap
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `snapmap serve --partition K/P`: a replica answers its own viewers, and refuses any other viewer's `/v1/me` request
/// with 421 naming the partition that serves them, before reading or changing anything.
@Suite("Serving a partition")
struct PartitionHTTPTests {
    @Test func aReplicaRefusesAViewerOfAnotherPartitionNamingItsPartition() async throws {
        let sam = PersonID(trusted: "samriv")
        let right = try ViewPartition(index: 0, count: 2).serving(sam)
        let wrong = try ViewPartition(index: 1 - right.index, count: 2)
        let home = try ServerFixture(serveOptions: ["--partition", right.description])
        let elsewhere = try ServerFixture(database: home.databasePath, serveOptions: ["--partition", wrong.description])
        let (_, _, sharing) = try await home.fetch("/v1/me/sharing")
        for (path, method) in [("/v1/me/layout.json", "GET"), ("/v1/me/friends", "GET"), ("/v1/me/sharing", "PUT")] {
            let (status, headers, body) = try await elsewhere.fetch(path, method: method, body: method == "PUT" ? Data(#"{"ghost":"3h"}"#.utf8) : nil)
            #expect(status == 421, "\(method) \(path)")
            #expect(headers["snapmap-partition"] == right.description)
            let answer = try JSONSerialization.jsonObject(with: body) as? [String: String]
            #expect(answer?["partition"] == right.description && answer?["error"]?.contains("served by partition \(right)") == true)
        }
        // Refused, the change was not made; Sam's own replica answers Sam, with friends on the map.
        #expect(try await home.fetch("/v1/me/sharing").2 == sharing)
        let (status, _, body) = try await home.fetch("/v1/me/layout.json")
        #expect(status == 200)
        let pins = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["pins"] as? [Any]
        #expect((pins?.count ?? 0) > 0, "Sam's replica shows Sam's friends")
    }

    @Test func aPartitionOutOfRangeIsRefusedAtStart() throws {
        #expect {
            try ServerFixture(serveOptions: ["--partition", "2/2"])
        } throws: { error in
            "\(error)".contains("--partition") && "\(error)".contains("0 to 1")
        }
    }
}
