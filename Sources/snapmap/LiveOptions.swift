import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import RedisStore

/// What the commands that read or change the live store share: where it is, whose view, and the clock.
enum LiveOptions {
    /// The store file: `--db`, else `$SNAPMAP_DB`, else `var/snapmap.db` beside the data directory.
    static func databasePath(_ options: ParsedOptions, dataDirectory: URL) -> String {
        options.value("db") ?? ProcessInfo.processInfo.environment["SNAPMAP_DB"] ?? dataDirectory.standardizedFileURL.deletingLastPathComponent().appendingPathComponent("var/snapmap.db").path
    }

    /// Opens the store (`--store redis://…`, else the SQLite file), seeding it from the fixture when it is new.
    /// Changes made by other processes arrive through Redis Cluster's sharded pub/sub, or the SQLite file's change
    /// log; `clock` is the server's, which what expires there is timed by. A server (`serving`) checks the SQLite
    /// file first and refuses a damaged one; it seeds only with `--demo` (`serving == .demo`), and without it opens
    /// only a file that exists, so a store that vanished is never quietly replaced by a new one.
    static func service(_ options: ParsedOptions, dataDirectory: URL, scene: Scene, clock: @escaping @Sendable () -> Date,
                        serving: Serving? = nil) throws -> LiveMapService {
        let (store, bus) = try openStore(options, dataDirectory: dataDirectory, clock: clock, serving: serving)
        if serving != .production,
           try DemoSeed.seedIfNeeded(store, scene: scene, snapsFile: dataDirectory.appendingPathComponent(SnapsFile.demoFile)), serving == .demo {
            Console.error("seeded a new demo store\n")
        }
        // A server answers the map's reads from its in-memory view unless told not to, kept current by the change log
        // (SQLite) or the sharded pub/sub bus (Redis Cluster), each of which says how current it is.
        let viewed = serving != nil && bus is BusLiveness && !options.flag("no-view")
        let partition = try partition(options)
        guard partition == nil || viewed else { throw UsageError(description: "--partition needs the in-memory view: drop --no-view") }
        let service = LiveMapService(store: viewed ? LiveView(store: store, partition: partition, clock: clock) : store)
        if let bus { service.attach(bus) }
        return service
    }

    /// `--partition K/P`, nil when absent.
    static func partition(_ options: ParsedOptions) throws -> ViewPartition? {
        do {
            return try options.value("partition").map { try ViewPartition(parsing: $0, field: "--partition") }
        } catch {
            throw UsageError(description: "\(error)")
        }
    }

    /// How `serve` opens its store: with `--demo` or without.
    enum Serving {
        case demo, production
    }

    /// The store `--store` or `--db` names (and, on Redis Cluster, the bus between replicas), keyed to `clock`.
    static func openStore(_ options: ParsedOptions, dataDirectory: URL, clock: @escaping @Sendable () -> Date,
                          serving: Serving? = nil) throws -> (any LiveStore, (any LiveBus)?) {
        if let url = options.value("store") {
            guard options.value("db") == nil else { throw UsageError(description: "--store and --db name two stores: give one") }
            let cluster = try RedisCluster(seeds: RedisCluster.seeds(from: url))
            return (RedisLiveStore(cluster: cluster, clock: clock), RedisChangeBus(cluster: cluster))
        }
        let path = databasePath(options, dataDirectory: dataDirectory)
        guard !path.isEmpty else { throw UsageError(description: "--db must name a file") }
        if let serving { try SQLiteLiveStore.checkFile(path: path, mustExist: serving == .production) }
        let store = try SQLiteLiveStore(path: path, integrityChecks: serving == nil ? nil : SQLiteLiveStore.servingIntegrityChecks)
        return (store, store.makeChangeFeed())
    }

    /// The scene, the data directory, the live store and the clock (`--clock`, else now) the store is keyed to,
    /// for the operator's commands.
    static func live(_ options: ParsedOptions) throws -> (scene: Scene, directory: URL, live: LiveMapService, now: Date) {
        let (scene, directory) = try self.scene(options)
        let now = try options.request.clock(scene: scene, default: Date())
        return (scene, directory, try service(options, dataDirectory: directory, scene: scene, clock: { now }), now)
    }

    /// The scene alone (for commands that need no base map).
    static func scene(_ options: ParsedOptions) throws -> (Scene, URL) {
        let directory = try DataLocator.directory(options)
        return (try SceneLoader(dataDirectory: directory).load(), directory)
    }

    /// The viewer's id (`--viewer`, default the scene's), the clock and the friends they see then; the engine's
    /// glow is fed from the store at that clock. `places` reads the viewer's own Footsteps that can tint a frame of a
    /// viewport with some layers (through the store's index of places: those in the frame's part of the map alone).
    static func view(_ options: ParsedOptions, engine: MapEngine) throws
        -> (viewer: PersonID, now: Date, friends: [Friend], location: Coordinate?, places: (Viewport, Set<MapLayer>) throws -> [MercatorPoint]) {
        let now = try options.request.clock(scene: engine.scene, default: Date())
        let live = try service(options, dataDirectory: engine.paths.dataDirectory, scene: engine.scene, clock: { now })
        let viewer = try options.value("viewer").map { try PersonID($0, field: "--viewer") } ?? DemoSeed.viewerID(engine.scene)
        try LiveGlow.connect(engine.glow.aggregate, live: live, clock: { now })
        let friends = try live.friends(of: viewer, at: now)
        if friends.isEmpty, options.value("clock") == nil, try !live.friends(of: viewer, at: engine.scene.capturedAt).isEmpty {
            Console.error(emptyMapNote(viewer, capturedAt: engine.scene.capturedAt))
        }
        let places = { (viewport: Viewport, layers: Set<MapLayer>) throws -> [MercatorPoint] in
            guard let box = engine.footstepsBounds(viewport, layers: layers) else { return [] }
            return try live.footsteps(of: viewer, in: box).map { WebMercator.projectUnchecked(lat: $0.lat, lon: $0.lon) }
        }
        return (viewer, now, friends, try live.ownFix(of: viewer, at: now)?.coordinate, places)
    }

    /// Why a map on the real clock shows nobody whom the fixture's clock shows, and how to see them.
    static func emptyMapNote(_ viewer: PersonID, capturedAt: Date) -> String {
        "snapmap: nobody shows on \(viewer)'s map: by the real clock every friend's latest fix is more than 24 hours old "
            + "(the demo's were taken by \(ISO8601DateFormatter().string(from: capturedAt))); add --clock scene to see the map as they left it\n"
    }
}
