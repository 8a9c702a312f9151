import Foundation
import GeoCore
import MapEngine
import MapScene

/// `snapmap scene`: the Williamsburg scene with every visible friend projected into the default viewport.
let runScene: Command.Run = { options in
    let scene = try SceneLoader(dataDirectory: DataLocator.directory(options)).load()
    return try JSONOutput.encode(SceneOutput(scene))
}

private struct SceneOutput: Encodable {
    struct ViewportOutput: Encodable {
        let center: Coordinate
        let zoom: Double
        let size: ScreenSize
        let scale: Double
        let pixelSize: [Int]
        let insets: EdgeInsets
        let freeRect: ScreenRect
        let visibleBounds: GeoBoundingBox
        let metresPerPoint: Double
    }

    struct FriendOutput: Encodable {
        let id: String
        let name: String
        let place: String
        let coordinate: Coordinate
        let mercator: MercatorPoint
        let point: ScreenPoint
        let inFreeArea: Bool
        let lastSeen: Date
        let snapstreak: Int
        let bestFriend: Bool
        let color: String
    }

    let viewer: Viewer
    let capturedAt: Date
    let viewport: ViewportOutput
    let friends: [FriendOutput]

    init(_ scene: Scene) {
        let view = scene.viewport
        viewer = scene.viewer
        capturedAt = scene.capturedAt
        viewport = ViewportOutput(center: view.center, zoom: view.zoom, size: view.size, scale: view.scale,
                                  pixelSize: [view.pixelWidth, view.pixelHeight], insets: view.insets,
                                  freeRect: view.freeRect, visibleBounds: view.visibleBounds,
                                  metresPerPoint: view.groundMetresPerPoint)
        friends = scene.friends.map { friend in
            let mercator = WebMercator.projectUnchecked(lat: friend.coordinate.lat, lon: friend.coordinate.lon)
            let point = view.point(forMercator: mercator)
            return FriendOutput(id: friend.id, name: friend.name, place: friend.place, coordinate: friend.coordinate,
                                mercator: mercator, point: point, inFreeArea: view.freeRect.contains(point),
                                lastSeen: friend.lastSeen, snapstreak: friend.snapstreak,
                                bestFriend: friend.bestFriend, color: friend.color)
        }
    }
}
