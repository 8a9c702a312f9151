import Foundation
import LiveMap

/// The live benchmarks' worlds, written by `snapmap seed --synthetic` (the operators' load-test worlds): `people`
/// people with about `friendsEach` mutual friends each, the first `community` also friends among themselves, and
/// the sign-in tokens of the first `tokens` people in a file, one a line.
struct LiveWorld {
    let people: Int
    let friendsEach: Int
    let community: Int
    let tokens: Int
    let now: Date

    /// Bumped when the store's tables or the seed change, so a cached world is rebuilt.
    static let format = 4

    static func id(_ index: Int) -> PersonID { SyntheticWorld.id(index) }

    /// Runs `snapmap seed --synthetic` (release) into a new SQLite file at `path`, the tokens into `tokenFile`.
    func build(path: String, tokenFile: URL) throws {
        _ = try BenchmarkProcess.run(".build/release/snapmap", [
            "seed", "--synthetic", String(people), "--friends-each", String(friendsEach), "--community", String(community),
            "--signed-in", String(tokens), "--tokens", tokenFile.path, "--clock", ISO8601DateFormatter().string(from: now), "--db", path,
        ])
    }

    /// Loads the same world into another store (Redis Cluster) with the tokens of `tokenFile`.
    func load(into store: any BulkLoadingStore, tokenFile: URL) throws {
        let tokens = try String(contentsOf: tokenFile, encoding: .utf8).split(separator: "\n").map(String.init)
        try SyntheticWorld(people: people, friendsEach: friendsEach, community: community, now: now).load(into: store, tokens: tokens)
    }

    /// A copy of the world at `path` and its tokens at `tokenFile`, built once into `cache` (the build takes
    /// minutes) and copied after.
    func copy(to path: String, tokenFile: URL, cache: URL) throws {
        let name = "live-world-v\(Self.format)-\(people)-\(friendsEach)-\(community)-\(tokens)-\(Int(now.timeIntervalSince1970))"
        let cached = cache.appendingPathComponent(name + ".db")
        let cachedTokens = cache.appendingPathComponent(name + ".tokens")
        if !FileManager.default.fileExists(atPath: cached.path) {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            let building = cache.appendingPathComponent(name + ".building")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: building.path + suffix) }
            try? FileManager.default.removeItem(at: cachedTokens)
            try build(path: building.path, tokenFile: cachedTokens)
            try SQLiteLiveStore.checkpoint(path: building.path)
            try FileManager.default.moveItem(at: building, to: cached)
        }
        try FileManager.default.copyItem(at: cached, to: URL(fileURLWithPath: path))
        try FileManager.default.copyItem(at: cachedTokens, to: tokenFile)
    }
}
