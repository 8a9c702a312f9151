import Foundation
import GeoCore
import MapEngine
import MapScene

/// `snapmap scene`: the Williamsburg scene with every visible friend projected into the default viewport.
let runScene: Command.Run = { options in
    let scene = try SceneLoader(dataDirectory: DataLocator.directory(options)).load()
    let view = scene.viewport
    let friends = scene.friends.map { friend in
        let mercator = WebMercator.projectUnchecked(lat: friend.coordinate.lat, lon: friend.coordinate.lon)
        let point = view.point(forMercator: mercator)
        return Merged(value: friend, beside: OnScreen(mercator: mercator, point: point, inFreeArea: view.freeRect.contains(point)))
    }
    let framing = Framing(pixelSize: [view.pixelWidth, view.pixelHeight], freeRect: view.freeRect, visibleBounds: view.visibleBounds,
                          metresPerPoint: view.groundMetresPerPoint)
    return try JSONOutput.encode(SceneOutput(viewer: scene.viewer, capturedAt: scene.capturedAt,
                                             viewport: Merged(value: view, beside: framing), friends: friends))
}

private struct SceneOutput: Encodable {
    let viewer: Viewer
    let capturedAt: Date
    let viewport: Merged<Viewport, Framing>
    let friends: [Merged<Friend, OnScreen>]
}

/// What a viewport covers, printed beside its centre, zoom, size, scale and insets.
private struct Framing: Encodable {
    let pixelSize: [Int]
    let freeRect: ScreenRect
    let visibleBounds: GeoBoundingBox
    let metresPerPoint: Double
}

/// Where a friend is on the scene's screen, printed beside the friend.
private struct OnScreen: Encodable {
    let mercator: MercatorPoint
    let point: ScreenPoint
    let inFreeArea: Bool
}
