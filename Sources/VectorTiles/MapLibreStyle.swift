import BaseMap
import Foundation
import Raster

/// A MapLibre Style Spec v8 document made from the raster style (`Data/styles/snapmap.json`), so that one look
/// drives both renderers: the same colours, zoom ranges and widths, zooms shifted by `zoomOffset`; the vector
/// tiles, the glow as raster tiles, and an empty `friends` GeoJSON source a page fills from the viewer's layout.
public enum MapLibreStyle {
    /// The raster style's zoom less MapLibre's for the same scale (MapLibre's zoom z has 512-pixel tiles).
    public static let zoomOffset = 1.0
    /// The font stack of text layers, as the glyph endpoint names it.
    public static let fontStack = "Inter Bold"

    /// Where the style's sources are (URLs on the serving host).
    public struct Sources: Sendable {
        public let vectorTileJSON: String
        public let heatTiles: String
        /// The zooms the glow tiles are offered at (their TileJSON's), in the raster style's zoom.
        public let heatZooms: ClosedRange<Int>
        /// `…/{fontstack}/{range}.pbf`; without it the style has no text layers.
        public let glyphs: String?

        public init(vectorTileJSON: String, heatTiles: String, heatZooms: ClosedRange<Int>, glyphs: String?) {
            self.vectorTileJSON = vectorTileJSON
            self.heatTiles = heatTiles
            self.heatZooms = heatZooms
            self.glyphs = glyphs
        }
    }

    /// The style as JSON bytes (sorted keys: the same style gives the same bytes), opening at `center` and the
    /// raster style's `zoom`.
    public static func json(_ style: MapStyle, friends: FriendMarkerLook, sources: Sources, center: (lon: Double, lat: Double), zoom: Double) -> [UInt8] {
        var document: [String: Any] = [
            "version": 8,
            "name": style.name,
            "center": [center.lon, center.lat],
            "zoom": glZoom(zoom),
            "sources": [
                "snapmap": ["type": "vector", "url": sources.vectorTileJSON],
                "heat": ["type": "raster", "tiles": [sources.heatTiles], "tileSize": 256,
                         "minzoom": sources.heatZooms.lowerBound, "maxzoom": sources.heatZooms.upperBound],
                "friends": ["type": "geojson", "data": ["type": "FeatureCollection", "features": [Any]()]],
            ],
            "layers": layers(style, friends: friends, sources: sources),
        ]
        if let glyphs = sources.glyphs { document["glyphs"] = glyphs }
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return [UInt8](data)
    }

    static func layers(_ style: MapStyle, friends: FriendMarkerLook, sources: Sources) -> [[String: Any]] {
        let text = sources.glyphs != nil
        var layers: [[String: Any]] = [
            ["id": "background", "type": "background", "paint": ["background-color": css(style.water)]],
            fill("water", color: style.water, minZoom: nil),
            fill("land", color: style.land, minZoom: nil),
            fill("parks", color: style.park, minZoom: style.parkMinZoom),
        ]
        for street in StreetClass.allCases {
            let look = style.street(street)
            layers.append(line("streets-\(street.rawValue)-casing", street, minZoom: look.minZoom, color: style.casingColor,
                               width: sum(look.width, style.casingWidth)))
        }
        for street in StreetClass.allCases {
            let look = style.street(street)
            layers.append(line("streets-\(street.rawValue)", street, minZoom: look.minZoom, color: look.color, width: stops(look.width)))
        }
        if let mark = style.places?.stationMark {
            layers.append(["id": "stations", "type": "circle", "source": "snapmap", "source-layer": "transit", "minzoom": glZoom(mark.minZoom),
                           "paint": ["circle-radius": stops(mark.radius), "circle-color": css(mark.fill), "circle-stroke-color": css(mark.ring),
                                     "circle-stroke-width": mark.ringWidth]])
        }
        layers.append(["id": "heat", "type": "raster", "source": "heat", "minzoom": glZoom(Double(sources.heatZooms.lowerBound)), "paint": ["raster-fade-duration": 0]])
        if text { layers += MapLibreLabels.layers(style) }
        layers += MapLibreLabels.friendLayers(friends, text: text)
        return layers
    }

    private static func fill(_ layer: String, color: Color, minZoom: Double?) -> [String: Any] {
        var result: [String: Any] = ["id": layer, "type": "fill", "source": "snapmap", "source-layer": layer,
                                     "paint": ["fill-color": css(color), "fill-antialias": true]]
        if let minZoom { result["minzoom"] = glZoom(minZoom) }
        return result
    }

    private static func line(_ id: String, _ street: StreetClass, minZoom: Double, color: Color, width: Any) -> [String: Any] {
        ["id": id, "type": "line", "source": "snapmap", "source-layer": "streets", "minzoom": glZoom(minZoom),
         "filter": ["==", ["get", "class"], street.rawValue],
         "layout": ["line-cap": "round", "line-join": "round"], "paint": ["line-color": css(color), "line-width": width]]
    }

    /// A raster style zoom as MapLibre's.
    public static func glZoom(_ zoom: Double) -> Double { max(0, zoom - zoomOffset) }

    /// `["interpolate", ["linear"], ["zoom"], …]` of stops, zooms shifted.
    static func stops(_ stops: ZoomStops) -> Any {
        var expression: [Any] = ["interpolate", ["linear"], ["zoom"]]
        for (zoom, value) in zip(stops.zooms, stops.values) { expression += [glZoom(zoom), value] }
        return stops.zooms.count == 1 ? stops.values[0] : expression
    }

    /// Two stop lists added, stopping at every zoom either has (their sum is linear between those).
    private static func sum(_ a: ZoomStops, _ b: ZoomStops) -> [Any] {
        var expression: [Any] = ["interpolate", ["linear"], ["zoom"]]
        for zoom in Set(a.zooms + b.zooms).sorted() { expression += [glZoom(zoom), a.value(at: zoom) + b.value(at: zoom)] }
        return expression
    }

    /// `rgba(…)`, which every MapLibre version reads.
    static func css(_ color: Color) -> String {
        let alpha = (Double(color.a) / 255 * 1000).rounded() / 1000
        return "rgba(\(color.r),\(color.g),\(color.b),\(alpha))"
    }
}
