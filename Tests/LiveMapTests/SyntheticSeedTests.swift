import Foundation
import LiveMap
import ServerTestSupport
import Testing

/// `snapmap seed --synthetic`: the world it writes and the tokens it hands out, checked by reading the store back.
@Suite("snapmap seed --synthetic")
struct SyntheticSeedTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try Snapmap.run(arguments)
        return (result.status, result.output, result.errorOutput)
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aSyntheticWorldHasMutualFriendsAndTokensThatSignIn() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("live.db").path
        let tokenFile = directory.appendingPathComponent("tokens.txt").path
        let result = try Self.run(["seed", "--synthetic", "400", "--friends-each", "20", "--community", "50", "--signed-in", "300",
                                   "--tokens", tokenFile, "--clock", "2026-12-01T12:00:00Z", "--db", database])
        #expect(result.status == 0, "\(result.stderr)")
        let tokens = try String(contentsOfFile: tokenFile, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(tokens.count == 300 && Set(tokens).count == 300)
        #expect((try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int) == 0o600)
        let live = LiveMapService(store: try SQLiteLiveStore(path: database))
        #expect(try live.people(limit: 1000).count == 400)
        for (index, token) in tokens.enumerated() where index % 37 == 0 {
            #expect(try live.authenticate(token) == SyntheticWorld.id(index))
        }
        var friendships = 0
        for index in 0..<400 {
            let relations = try live.store.relations(of: SyntheticWorld.id(index))
            #expect(relations.allSatisfy { $0.status == .friends })
            friendships += relations.count
        }
        // About friendsEach (half asked by each side, less the few pairs drawn twice), community members 20 more.
        let average = Double(friendships) / 400
        #expect(average > 17 && average < 24)
        let now = try #require(ISO8601DateFormatter().date(from: "2026-12-01T12:00:00Z"))
        #expect(try live.visibleFriends(of: SyntheticWorld.id(0), at: now).count >= 5)
        #expect(try Self.run(["seed", "--synthetic", "10", "--tokens", tokenFile, "--db", database]).status == 1)
        #expect(try live.people(limit: 1000).count == 400)
    }

    @Test(arguments: [
        (["--synthetic", "0"], "--synthetic"),
        (["--synthetic", "10", "--friends-each", "1001"], "--friends-each"),
        (["--synthetic", "10", "--signed-in", "11"], "--signed-in"),
        (["--synthetic", "10"], "--tokens"),
        (["--friends-each", "10"], "--synthetic"),
    ])
    func badSizesAreUsageErrorsThatWriteNothing(arguments: [String], named: String) throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("live.db").path
        let tokenFile = directory.appendingPathComponent("tokens.txt").path
        let tokens = arguments.contains("--tokens") || named == "--tokens" ? [] : ["--tokens", tokenFile]
        let result = try Self.run(["seed"] + arguments + tokens + ["--db", database])
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.contains(named))
        #expect(!FileManager.default.fileExists(atPath: database) && !FileManager.default.fileExists(atPath: tokenFile))
    }
}
