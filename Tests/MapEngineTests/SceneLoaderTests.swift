import Foundation
import GeoCore
import Testing
@testable import MapEngine
@testable import MapScene

@Suite("Williamsburg scene fixtures")
struct SceneLoaderTests {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data")

    private func loadCommitted() throws -> Scene {
        try SceneLoader(dataDirectory: Self.dataDirectory).load()
    }

    @Test func loadsTheViewerViewportAndEightVisibleFriends() throws {
        let scene = try loadCommitted()
        #expect(scene.viewer.name == "Sam Rivera" && scene.viewer.username == "samriv")
        #expect(scene.viewport.pixelWidth == 1179 && scene.viewport.pixelHeight == 2556)
        #expect(scene.friends.count == 8)
        let names = Set(scene.friends.map(\.name))
        for name in ["Jordan Lee", "Maya Chen", "Theo Park", "Priya Shah", "Leo Martins"] {
            #expect(names.contains(name))
        }
        for friend in scene.friends {
            let point = try scene.viewport.point(for: friend.coordinate)
            #expect(scene.viewport.freeRect.contains(point), "\(friend.name) is on screen at the default viewport")
        }
        #expect(scene.friend(id: "jordan")?.lastSeen == scene.capturedAt.addingTimeInterval(-120))
    }

    @Test func ghostedFriendIsInTheFileButNeverInTheScene() throws {
        let raw = try String(contentsOf: Self.dataDirectory.appendingPathComponent(SceneLoader.friendsFile), encoding: .utf8)
        #expect(raw.contains("\"ghostMode\": true"))
        let scene = try loadCommitted()
        #expect(scene.friend(id: "rae") == nil)
        #expect(!scene.friends.contains { $0.name.contains("Rae") })
    }

    @Test func fixtureExercisesGroupsAndLabelCollisions() throws {
        let scene = try loadCommitted()
        let viewport = scene.viewport
        let avatarSide = 48.0
        var together = 0
        var neighbours = 0
        for (index, first) in scene.friends.enumerated() {
            for second in scene.friends[(index + 1)...] {
                let metres = Geodesic.wgs84.distance(first.coordinate, second.coordinate)
                let a = try viewport.point(for: first.coordinate)
                let b = try viewport.point(for: second.coordinate)
                let (dx, dy) = (abs(a.x - b.x), abs(a.y - b.y))
                if (10...100).contains(metres) && dx < avatarSide / 2 && dy < avatarSide / 2 { together += 1 }
                if dx > avatarSide && dx < 90 && dy < 20 { neighbours += 1 }
            }
        }
        #expect(together >= 1, "two friends tens of metres apart whose avatars overlap by more than half")
        #expect(neighbours >= 1, "two friends whose avatars stay apart but whose labels meet")
    }
}
