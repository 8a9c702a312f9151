import Foundation
import GeoCore

/// The Snap Map fixture, loaded once from `Data/`: the viewer, the default viewport, the selection settings
/// and the friends that seed the demo store. Outputs never read friends from here: they come from the store.
public struct Scene: Sendable {
    public let viewer: Viewer
    /// The moment the fixture depicts; friends' `lastSeen` times are relative to it.
    public let capturedAt: Date
    public let viewport: Viewport
    public let selection: SelectionSettings
    /// The fixture's friends who share their location, in fixture order.
    public let friends: [Friend]
    /// The fixture's friends in Ghost Mode (seeded with Ghost Mode on until turned off).
    public let ghosts: [Friend]
    /// The cartoon looks the fixture gives people (the viewer and friends), by id.
    public let looks: [String: AvatarLook]

    /// Someone's avatar look: the fixture's, or one derived from their id with their colour as the top.
    public func look(of id: String, color: String) -> AvatarLook { looks[id] ?? AvatarLook.derived(from: id, color: color) }

    /// The friend with an id, if visible.
    public func friend(id: String) -> Friend? { friends.first { $0.id == id } }
}

/// Reads and validates `williamsburg/scene.json` and `williamsburg/friends.json` under a data directory.
public struct SceneLoader: Sendable {
    public static let sceneFile = "williamsburg/scene.json"
    public static let friendsFile = "williamsburg/friends.json"

    public let dataDirectory: URL

    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// Loads the scene; any problem is a `DataFileError` naming the file and field path.
    public func load() throws(DataFileError) -> Scene {
        let sceneRecord = try decode(SceneRecord.self, from: Self.sceneFile)
        let viewport = try sceneRecord.validatedViewport(file: Self.sceneFile)
        let capturedAt = try sceneRecord.validatedCapturedAt(file: Self.sceneFile)
        let selection = try sceneRecord.validatedSelection(file: Self.sceneFile)
        let (friends, ghosts, looks) = try loadFriends(capturedAt: capturedAt)
        var allLooks = looks
        if let look = sceneRecord.viewerLook { allLooks[sceneRecord.viewer.username] = try look.validated(path: "viewerLook", file: Self.sceneFile) }
        return Scene(viewer: sceneRecord.viewer, capturedAt: capturedAt, viewport: viewport, selection: selection, friends: friends, ghosts: ghosts,
                     looks: allLooks)
    }

    private struct FriendsFile: Decodable {
        let friends: [FriendRecord]
    }

    private func loadFriends(capturedAt: Date) throws(DataFileError) -> (sharing: [Friend], ghosts: [Friend], looks: [String: AvatarLook]) {
        let records = try decode(FriendsFile.self, from: Self.friendsFile).friends
        var seen = Set<String>()
        var visible: [Friend] = []
        var ghosts: [Friend] = []
        var looks: [String: AvatarLook] = [:]
        for (index, record) in records.enumerated() {
            let prefix = "friends[\(index)]"
            guard seen.insert(record.id).inserted else {
                throw DataFileError(file: Self.friendsFile, path: prefix + ".id", message: "duplicate id \"\(record.id)\"")
            }
            let friend = try record.validated(prefix: prefix, file: Self.friendsFile, capturedAt: capturedAt)
            if record.ghostMode == true { ghosts.append(friend) } else { visible.append(friend) }
            if let look = record.look { looks[record.id] = try look.validated(path: prefix + ".look", file: Self.friendsFile) }
        }
        return (visible, ghosts, looks)
    }

    private func decode<T: Decodable>(_ type: T.Type, from relativePath: String) throws(DataFileError) -> T {
        let url = dataDirectory.appendingPathComponent(relativePath)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DataFileError(file: url.path, path: "", message: "cannot read the file (expected under the data directory \(dataDirectory.path))")
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw DataFileError.from(error, file: relativePath, data: data)
        }
    }
}
