import GeoCore

/// A snapshot placed on the phone's screen: the camera it is taken with, the screen and what the status bar and the
/// sheet cover. A framed route and a live order's layout are both one; both turn into the viewport here.
public protocol ScreenSnapshot {
    var camera: Camera { get }
    var size: ScreenSize { get }
    var scale: Double { get }
    var insets: EdgeInsets { get }
}

extension ScreenSnapshot {
    /// The viewport the snapshot is taken with.
    public func viewport() throws(BadField) -> Viewport {
        try Viewport(center: camera.center, zoom: camera.zoom, size: size, scale: scale, insets: insets)
    }
}
