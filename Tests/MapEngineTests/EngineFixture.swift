import Foundation
import MapEngine

/// One engine for the tests, loaded from the committed data (the base map imported on first use).
enum EngineFixture {
    static let engine: Result<MapEngine, any Error> = Result {
        try MapEngine(paths: DataPaths(dataDirectory: SceneLoaderTests.dataDirectory))
    }

    static func temporaryURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-\(UUID().uuidString)-\(name)")
    }
}
