import Foundation
import GeoCore

/// The answer to "zoom to this friend (or group)": where the camera goes, what the map shows afterwards,
/// where the friend lands on screen, and the path to fly there.
public struct ZoomAnswer: Sendable, Codable {
    public let target: String
    public let camera: Camera
    /// The insets the card and status bar leave, as `MKMapView.setVisibleMapRect(_:edgePadding:)` takes them.
    public let edgePadding: EdgeInsets
    /// What the whole viewport shows after the zoom.
    public let visibleBounds: GeoBoundingBox
    public let visibleMercatorRect: MercatorCorners
    /// Where the friend (or the group's centre) lands on screen after the zoom.
    public let screenPoint: ScreenPoint
    /// The centre of the free area, where a friend lands.
    public let freeCenter: ScreenPoint
    public let duration: Double
    public let path: [FlyFrame]
    /// The user was zoomed in beyond the selection's maximum, and the camera keeps their zoom.
    public let keepsUserZoom: Bool
}

/// Computes selection cameras: a friend goes to the centre of what the card leaves free, zooming in to the
/// selection zoom but never out from a closer zoom and never past the max zoom (a user zoomed in further keeps
/// their zoom, and the answer says so); a group zooms to where it splits, capped at the max zoom.
public struct SelectionCamera: Sendable {
    public let selectionZoom: Double
    public let maxZoom: Double

    public init(selectionZoom: Double, maxZoom: Double) {
        self.selectionZoom = selectionZoom
        self.maxZoom = maxZoom
    }

    /// The card heights a viewport allows, for friends and groups alike: up to a point below the status bar.
    public static func cardHeightRange(for viewport: Viewport) -> ClosedRange<Double> {
        0...max(0, viewport.size.height - viewport.insets.top - 1)
    }

    /// The viewport's insets with the card's height at the bottom.
    public static func insets(of viewport: Viewport, cardHeight: Double) throws(BadField) -> EdgeInsets {
        try BadField.check(cardHeight, "card-height", in: cardHeightRange(for: viewport))
        var insets = viewport.insets
        insets.bottom = max(insets.bottom, cardHeight)
        return insets
    }

    public func zoom(toFriend id: String, at coordinate: Coordinate, from viewport: Viewport, cardHeight: Double) throws(BadField) -> ZoomAnswer {
        let framed = try viewport.with(insets: Self.insets(of: viewport, cardHeight: cardHeight))
        let keeps = viewport.zoom > maxZoom
        let zoom = keeps ? viewport.zoom : min(max(viewport.zoom, selectionZoom), maxZoom)
        let camera = try framed.camera(fitting: [coordinate], maxZoom: zoom)
        return try answer(id, camera: camera, focus: coordinate, from: viewport, framed: framed, keepsUserZoom: keeps)
    }

    /// A group zooms to the whole zoom where it splits (`splitZoom`; the max zoom when it never does, and never
    /// past it), centred on its members, as supercluster's expansion zoom is used.
    public func zoom(toGroup id: String, members: [Coordinate], splitZoom: Int?, from viewport: Viewport,
                     cardHeight: Double) throws(BadField) -> ZoomAnswer {
        let framed = try viewport.with(insets: Self.insets(of: viewport, cardHeight: cardHeight))
        guard let box = GeoBoundingBox(enclosing: members) else { throw BadField(field: "members", message: "a group needs members") }
        let centre = WebMercator.unprojectUnchecked(try box.mercatorRect().center)
        let camera = try framed.camera(fitting: [centre], maxZoom: min(splitZoom.map(Double.init) ?? maxZoom, maxZoom))
        return try answer(id, camera: camera, focus: centre, from: viewport, framed: framed, keepsUserZoom: false)
    }

    private func answer(_ id: String, camera: Camera, focus: Coordinate, from viewport: Viewport, framed: Viewport,
                        keepsUserZoom: Bool) throws(BadField) -> ZoomAnswer {
        let after = try framed.with(camera)
        let path = FlyToPath.frames(from: viewport.camera, to: camera, viewportSize: viewport.size)
        return ZoomAnswer(target: id, camera: camera, edgePadding: framed.insets, visibleBounds: after.visibleBounds,
                          visibleMercatorRect: MercatorCorners(after.visibleMercatorRect), screenPoint: try after.point(for: focus),
                          freeCenter: after.freeRect.center, duration: path.duration, path: path.frames, keepsUserZoom: keepsUserZoom)
    }
}
