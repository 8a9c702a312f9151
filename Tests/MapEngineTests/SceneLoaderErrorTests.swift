import Foundation
import GeoCore
import Testing
@testable import MapEngine
@testable import MapScene

@Suite("Fixture errors name the file and the field")
struct SceneLoaderErrorTests {
    /// Copies the committed fixtures into a fresh directory, applying `edit` to one file's text.
    private func load(editing file: String, _ edit: (String) -> String) throws -> DataFileError? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-fixture-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("williamsburg"), withIntermediateDirectories: true)
        for name in [SceneLoader.sceneFile, SceneLoader.friendsFile] {
            var text = try String(contentsOf: SceneLoaderTests.dataDirectory.appendingPathComponent(name), encoding: .utf8)
            if name == file { text = edit(text) }
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        do {
            _ = try SceneLoader(dataDirectory: directory).load()
            return nil
        } catch {
            return error
        }
    }

    @Test func latitudeOutOfRangeNamesTheFriend() throws {
        let error = try #require(try load(editing: SceneLoader.friendsFile) { $0.replacingOccurrences(of: "40.72040", with: "95.0") })
        #expect(error.file == SceneLoader.friendsFile)
        #expect(error.path == "friends[1]")
        #expect(error.message.contains("lat") && error.message.contains("90"))
    }

    @Test func missingFieldAndWrongTypeGiveThePath() throws {
        let missing = try #require(try load(editing: SceneLoader.friendsFile) { $0.replacingOccurrences(of: "\"snapstreak\": 247, ", with: "") })
        #expect(missing.path == "friends[0].snapstreak" && missing.message.contains("missing"))
        let wrongType = try #require(try load(editing: SceneLoader.sceneFile) { $0.replacingOccurrences(of: "\"zoom\": 14.5", with: "\"zoom\": \"near\"") })
        #expect(wrongType.file == SceneLoader.sceneFile && wrongType.path == "viewport.zoom")
    }

    @Test func malformedJSONAndBadValues() throws {
        let malformed = try #require(try load(editing: SceneLoader.friendsFile) { String($0.dropLast(10)) })
        #expect(malformed.message.contains("malformed JSON"))
        let zoom = try #require(try load(editing: SceneLoader.sceneFile) { $0.replacingOccurrences(of: "\"zoom\": 14.5", with: "\"zoom\": 30") })
        #expect(zoom.path == "viewport" && zoom.message.contains("zoom") && zoom.message.contains("22"))
        let color = try #require(try load(editing: SceneLoader.friendsFile) { $0.replacingOccurrences(of: "#0EADFF", with: "blue") })
        #expect(color.path == "friends[0].color")
        let duplicate = try #require(try load(editing: SceneLoader.friendsFile) { $0.replacingOccurrences(of: "\"id\": \"maya\"", with: "\"id\": \"jordan\"") })
        #expect(duplicate.path == "friends[1].id" && duplicate.message.contains("duplicate"))
        let minutes = try #require(try load(editing: SceneLoader.friendsFile) { $0.replacingOccurrences(of: "\"lastSeenMinutesAgo\": 2,", with: "\"lastSeenMinutesAgo\": -2,") })
        #expect(minutes.path == "friends[0].lastSeenMinutesAgo" && minutes.message.contains("0 …"))
    }

    @Test func missingFileNamesIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-empty-\(UUID().uuidString)")
        let error = #expect(throws: DataFileError.self) { try SceneLoader(dataDirectory: directory).load() }
        #expect(error?.file.hasSuffix(SceneLoader.sceneFile) == true)
    }
}
