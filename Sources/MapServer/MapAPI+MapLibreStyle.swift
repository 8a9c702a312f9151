import Foundation
import MapEngine
import PinDrawing
import VectorTiles

extension MapAPI {
    /// The MapLibre style of the engine's base map (`MapLibreStyle`) with its sources on `origin` (`http://host:port`),
    /// opening at the scene's viewport; text layers when the server has glyphs to give.
    func mapLibreStyle(origin: String, glyphs: Bool) -> [UInt8] {
        let pinLook: PinLook = engine.pinLook
        let look = FriendMarkerLook(avatarSize: pinLook.layout.avatarSize, ringWidth: pinLook.layout.ringWidth, ring: pinLook.ring,
                                    labelInk: pinLook.labelInk, labelHalo: pinLook.labelBackground, labelFontSize: pinLook.layout.labelFontSize)
        let sources = MapLibreStyle.Sources(vectorTileJSON: origin + "/vector.json", heatTiles: origin + "/heat/{z}/{x}/{y}.png",
                                            heatZooms: MapEngine.offeredTileZooms,
                                            glyphs: glyphs ? origin + "/fonts/{fontstack}/{range}.pbf" : nil)
        let view = engine.scene.viewport
        return MapLibreStyle.json(engine.baseMap.style, friends: look, sources: sources, center: (view.center.lon, view.center.lat), zoom: view.zoom)
    }
}
