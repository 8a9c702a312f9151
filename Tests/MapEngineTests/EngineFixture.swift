import Foundation
import LiveMap
import MapEngine
import MapScene

/// One engine for the tests, loaded from the committed data (the base map imported on first use), its glow already
/// fed by `LiveFixture`'s store: a test sees the same glow whichever tests ran before it or run beside it.
enum EngineFixture {
    static var engine: Result<MapEngine, any Error> { LiveFixture.seeded.map(\.engine) }

    static func temporaryURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-\(UUID().uuidString)-\(name)")
    }
}

/// A store seeded from the fixture (people and the demo's Snaps, which feed the shared engine's glow), and the
/// friends Sam sees in it at the scene's capture time. Made with the engine, so no test sees the glow being fed.
enum LiveFixture {
    static let seeded: Result<(engine: MapEngine, live: LiveMapService), any Error> = Result {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: SceneLoaderTests.dataDirectory))
        let store = try SQLiteLiveStore(path: EngineFixture.temporaryURL("live.db").path)
        try DemoSeed.seed(store, scene: engine.scene, snapsFile: engine.paths.dataDirectory.appendingPathComponent(SnapsFile.demoFile))
        let live = LiveMapService(store: store)
        try LiveGlow.connect(engine.glow.aggregate, live: live, clock: { engine.scene.capturedAt })
        return (engine, live)
    }

    static var service: Result<LiveMapService, any Error> { seeded.map(\.live) }

    static func samsFriends() throws -> [Friend] {
        let engine = try EngineFixture.engine.get()
        return try service.get().friends(of: DemoSeed.viewerID(engine.scene), at: engine.scene.capturedAt)
    }
}
