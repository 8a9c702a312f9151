import BaseMap
import Raster

/// How the signed-in viewer's friends look on the MapLibre map (from the pin style): a circle of the avatar's
/// size in its colour with the white ring, and the label under it.
public struct FriendMarkerLook: Sendable {
    public let avatarSize: Double
    public let ringWidth: Double
    public let ring: Color
    public let labelInk: Color
    public let labelHalo: Color
    public let labelFontSize: Double

    public init(avatarSize: Double, ringWidth: Double, ring: Color, labelInk: Color, labelHalo: Color, labelFontSize: Double) {
        self.avatarSize = avatarSize
        self.ringWidth = ringWidth
        self.ring = ring
        self.labelInk = labelInk
        self.labelHalo = labelHalo
        self.labelFontSize = labelFontSize
    }
}

/// The style's text layers (street and place names, as the raster map writes them) and the friends' layers.
enum MapLibreLabels {
    /// Ems before MapLibre wraps a name: wide enough that names stay on one line, as the raster map writes them.
    static let unwrapped = 30
    static func layers(_ style: MapStyle) -> [[String: Any]] {
        let labels = style.labels
        var layers: [[String: Any]] = [[
            "id": "street-names", "type": "symbol", "source": "snapmap", "source-layer": "streets",
            "minzoom": MapLibreStyle.glZoom(labels.minZoom), "filter": ["has", "name"],
            "layout": ["symbol-placement": "line", "text-field": ["get", "name"], "text-font": [MapLibreStyle.fontStack],
                       "text-size": MapLibreStyle.stops(labels.size), "symbol-spacing": labels.spacing, "text-max-angle": labels.maxTurnDegrees],
            "paint": ["text-color": MapLibreStyle.css(labels.color), "text-halo-color": MapLibreStyle.css(labels.halo),
                      "text-halo-width": labels.haloWidth],
        ]]
        guard let places = style.places else { return layers }
        // MapLibre places the top layer's symbols first: waters, then neighbourhoods, stations, parks, as the raster map.
        for kind in [PlaceKind.park, .station, .neighbourhood, .water] {
            guard kind != .station else {
                layers.append(stationNames(places))
                continue
            }
            let look = places.layer(kind)
            let name = VectorTileMaker.kindNames[Int(kind.rawValue)]
            layers.append([
                "id": "place-names-\(name)", "type": "symbol", "source": "snapmap", "source-layer": "places",
                "minzoom": MapLibreStyle.glZoom(look.minZoom), "maxzoom": MapLibreStyle.glZoom(look.maxZoom),
                "filter": ["all", ["==", ["get", "kind"], name], [">=", ["zoom"], ["get", "minzoom"]]],
                "layout": ["text-field": ["get", "name"], "text-font": [MapLibreStyle.fontStack], "text-size": MapLibreStyle.stops(look.size),
                           "text-transform": look.uppercase ? "uppercase" : "none", "text-letter-spacing": look.letterSpacing,
                           "text-rotate": ["get", "angle"], "text-rotation-alignment": "map", "text-padding": places.padding,
                           "text-max-width": Self.unwrapped],
                "paint": ["text-color": MapLibreStyle.css(look.color), "text-halo-color": MapLibreStyle.css(places.halo),
                          "text-halo-width": places.haloWidth],
            ])
        }
        return layers
    }

    /// Station names beside their marks: right of the mark, else left, below or above (the raster map's order).
    static func stationNames(_ places: MapStyle.Places) -> [String: Any] {
        let (look, mark) = (places.layer(.station), places.stationMark)
        let reference = max(mark.minZoom, look.minZoom) + 2
        let offset = (mark.radius.value(at: reference) + mark.ringWidth / 2 + mark.gap) / look.size.value(at: reference)
        return [
            "id": "station-names", "type": "symbol", "source": "snapmap", "source-layer": "transit",
            "minzoom": MapLibreStyle.glZoom(look.minZoom), "maxzoom": MapLibreStyle.glZoom(look.maxZoom),
            "layout": ["text-field": ["get", "name"], "text-font": [MapLibreStyle.fontStack], "text-size": MapLibreStyle.stops(look.size),
                       "text-variable-anchor": ["left", "right", "top", "bottom"], "text-radial-offset": (offset * 100).rounded() / 100,
                       "text-justify": "auto", "text-padding": places.padding, "text-max-width": Self.unwrapped],
            "paint": ["text-color": MapLibreStyle.css(look.color), "text-halo-color": MapLibreStyle.css(places.halo),
                      "text-halo-width": places.haloWidth],
        ]
    }

    /// The Actionmoji poses drawn under a friend's circle (the plane window, the balloons); the others go over it.
    static let posesBehind = ["flying", "birthday"]
    static let posesInFront = ["driving", "asleep"]

    /// Circles for friends and groups (`color` and `label` properties), each friend's Actionmoji pose (`pose`: the
    /// page's image `pose-NAME`, centred on the friend, under or over the circle as the raster pins draw it), and their
    /// labels when there is text.
    static func friendLayers(_ look: FriendMarkerLook, text: Bool) -> [[String: Any]] {
        func poses(_ id: String, _ names: [String]) -> [String: Any] {
            ["id": id, "type": "symbol", "source": "friends", "filter": ["match", ["get", "pose"], names, true, false],
             "layout": ["icon-image": ["concat", "pose-", ["get", "pose"]], "icon-allow-overlap": true, "icon-ignore-placement": true]]
        }
        var layers: [[String: Any]] = [poses("friend-poses-behind", posesBehind), [
            "id": "friends", "type": "circle", "source": "friends",
            "paint": ["circle-radius": look.avatarSize / 2 - look.ringWidth, "circle-color": ["get", "color"],
                      "circle-stroke-color": MapLibreStyle.css(look.ring), "circle-stroke-width": look.ringWidth],
        ], poses("friend-poses", posesInFront)]
        if text {
            layers.append([
                "id": "friend-labels", "type": "symbol", "source": "friends",
                "layout": ["text-field": ["get", "label"], "text-font": [MapLibreStyle.fontStack], "text-size": look.labelFontSize,
                           "text-anchor": "top", "text-offset": [0, look.avatarSize / 2 / look.labelFontSize + 0.3], "text-allow-overlap": true],
                "paint": ["text-color": MapLibreStyle.css(look.labelInk), "text-halo-color": MapLibreStyle.css(look.labelHalo), "text-halo-width": 2],
            ])
        }
        return layers
    }
}
