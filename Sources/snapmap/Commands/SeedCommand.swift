import Foundation
import LiveMap
import MapScene

/// `snapmap seed`: loads the Williamsburg fixture into the store (done by itself when the store is new), or with
/// `--synthetic` a load-test world of any size and the sign-in tokens of its people.
let runSeed: Command.Run = { options in
    let (scene, directory) = try LiveOptions.scene(options)
    guard let people = try options.integer("synthetic", in: SyntheticWorld.peopleRange) else {
        for name in ["friends-each", "tokens", "signed-in", "community", "seed"] where options.value(name) != nil {
            throw UsageError(description: "--\(name) needs --synthetic PEOPLE")
        }
        // The fixture's fixes and Snaps are of its capture time: on Redis Cluster they last as long from then.
        let (store, _) = try LiveOptions.openStore(options, dataDirectory: directory, clock: { scene.capturedAt })
        try DemoSeed.seed(store, scene: scene, snapsFile: directory.appendingPathComponent(SnapsFile.demoFile))
        return "seeded \(options.value("store") ?? LiveOptions.databasePath(options, dataDirectory: directory)): "
            + "\(scene.viewer.username) and \(scene.friends.count + scene.ghosts.count) friends"
    }
    return try seedSynthetic(options, people: people, scene: scene, directory: directory)
}

/// Writes a synthetic world into an empty store, then its tokens; nothing is written when an option is wrong.
private func seedSynthetic(_ options: ParsedOptions, people: Int, scene: Scene, directory: URL) throws -> String {
    let friendsEach = try options.integer("friends-each", in: SyntheticWorld.friendsRange) ?? 100
    let signedIn = try options.integer("signed-in", in: 0...people) ?? people
    let community = try options.integer("community", in: 0...people) ?? min(1_000, people)
    let seed = try options.integer("seed", in: 0...Int.max) ?? 11
    let tokenPath = try options.requiredPath("tokens")
    let now = try options.request.clock(scene: scene, default: Date())
    let world = try SyntheticWorld(people: people, friendsEach: friendsEach, community: community, now: now, seed: UInt64(seed))
    let (opened, _) = try LiveOptions.openStore(options, dataDirectory: directory, clock: { now })
    guard let store = opened as? any BulkLoadingStore else { throw UsageError(description: "this store cannot load a world at once") }
    guard try store.people(after: nil, limit: 1).isEmpty else {
        throw LiveMapError.conflict(message: "the store already has people: --synthetic loads only an empty store")
    }
    let tokens = SyntheticWorld.randomTokens(count: signedIn)
    guard FileManager.default.createFile(atPath: tokenPath, contents: Data(tokens.map { $0 + "\n" }.joined().utf8), attributes: [.posixPermissions: 0o600]) else {
        throw UsageError(description: "--tokens: cannot write \(tokenPath)")
    }
    try world.load(into: store, tokens: tokens)
    // The file alone then holds the world, to copy it (a world is copied to load-test many servers alike).
    if let file = store as? SQLiteLiveStore { try SQLiteLiveStore.checkpoint(path: file.path) }
    return "seeded \(options.value("store") ?? LiveOptions.databasePath(options, dataDirectory: directory)): \(people) people, "
        + "about \(friendsEach) friends each, \(signedIn) tokens in \(tokenPath)"
}
