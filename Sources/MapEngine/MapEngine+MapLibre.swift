import Foundation
import MapScene
import PinDrawing
import VectorTiles

extension MapEngine {
    /// The zooms the raster and glow tiles are offered at in TileJSON and styles (frames' zooms; any tile can be asked for).
    public static let offeredTileZooms = Int(frameZoomRange.lowerBound)...Int(frameZoomRange.upperBound)

    /// The MapLibre style of the base map (`MapLibreStyle`) with its sources on `origin` (`http://host:port`), opening
    /// at the scene's viewport; text layers when the server has glyphs to give.
    public func mapLibreStyle(origin: String, glyphs: Bool) -> [UInt8] {
        let look = FriendMarkerLook(avatarSize: pinLook.layout.avatarSize, ringWidth: pinLook.layout.ringWidth, ring: pinLook.ring,
                                    labelInk: pinLook.labelInk, labelHalo: pinLook.labelBackground, labelFontSize: pinLook.layout.labelFontSize)
        let sources = MapLibreStyle.Sources(vectorTileJSON: origin + "/vector.json", heatTiles: origin + "/heat/{z}/{x}/{y}.png",
                                            heatZooms: Self.offeredTileZooms,
                                            glyphs: glyphs ? origin + "/fonts/{fontstack}/{range}.pbf" : nil)
        let view = scene.viewport
        return MapLibreStyle.json(baseMap.style, friends: look, sources: sources, center: (view.center.lon, view.center.lat), zoom: view.zoom)
    }
}
