import Foundation
import GeoCore
import MapScene
import PinDrawing
import PinLayout
import Raster

/// The moment a friend is tapped: the map at the selection camera with the friend's card over the bottom.
extension MapEngine {
    /// The viewport of the selected frame (the selection camera for `selected` from `viewport`, the card's height
    /// as the bottom inset) and its layout, which carries the card.
    public func selectionLayout(_ viewport: Viewport, friends: [Friend], selected: String, now: Date,
                                viewer: Coordinate? = nil) throws -> (viewport: Viewport, layout: PinLayoutResult, zoom: ZoomAnswer) {
        guard let friend = friends.first(where: { $0.id == selected }) else { throw UnknownFriend(id: selected) }
        let start = try layout(viewport, friends: friends, now: now)
        let answer = try zoom(to: selected, friends: friends, from: viewport, layout: start)
        let framed = try viewport.with(insets: answer.edgePadding).with(answer.camera)
        var result = try layout(framed, friends: friends, selected: selected, now: now)
        result.card = SelectionCard(friend: subjects([friend])[0], place: friend.place,
                                    distanceMeters: viewer.map { Geodesic.wgs84.distance($0, friend.coordinate) }, now: now,
                                    size: framed.size, height: answer.edgePadding.bottom, metrics: cardLook.metrics, liveUntil: friend.liveUntil)
        return (framed, result, answer)
    }

    /// The selected frame: base, glow and pins at the selection camera, the card drawn over the bottom.
    public func renderSelectedFrame(_ viewport: Viewport, layers: Set<MapLayer> = [.base, .heat, .pins], friends: [Friend], selected: String,
                                    now: Date, viewer: Coordinate? = nil, places: [MercatorPoint] = [], sharing: SharedLayers? = nil) throws -> RenderedFrame {
        let (framed, layout, _) = try selectionLayout(viewport, friends: friends, selected: selected, now: now, viewer: viewer)
        return try composeFrame(framed, layers: layers.union([.pins]), layout: layout, friends: friends,
                                card: cardInk(layout, selected: selected, friends: friends), now: now, places: places, sharing: sharing).frame
    }
}
