import BaseMap

/// What each vector tile layer holds: its name, its attributes and their types, and the zooms it has data at
/// (from the style, as the raster map shows them). TileJSON and the MBTiles `json` row list these.
public struct VectorLayerSchema: Sendable, Encodable, Equatable {
    public let id: String
    public let description: String
    public let minzoom: Int
    public let maxzoom: Int
    /// Attribute name → "String" or "Number" (the TileJSON `vector_layers` convention).
    public let fields: [String: String]

    /// The deepest zoom with tiles of their own; clients draw deeper zooms from these ("overzoom").
    public static let maxZoom = 16

    /// The first tile zoom drawn at a raster style zoom (`TileFrame.styleZooms`).
    public static func firstTile(_ styleZoom: Double) -> Int { max(0, Int((styleZoom - MapLibreStyle.zoomOffset).rounded(.down))) }

    /// The layers in drawing order.
    public static func layers(for style: MapStyle) -> [VectorLayerSchema] {
        let streetsFrom = StreetClass.allCases.map { style.street($0).minZoom }.min() ?? 0
        let placesFrom = style.places.map { places in PlaceKind.allCases.filter { $0 != .station }.map { places.layer($0).minZoom }.min() ?? 0 }
        var layers = [
            VectorLayerSchema(id: "water", description: "Water: the tile less the land", minzoom: 0, maxzoom: maxZoom, fields: [:]),
            VectorLayerSchema(id: "land", description: "Land inside the borough shoreline", minzoom: 0, maxzoom: maxZoom, fields: [:]),
            VectorLayerSchema(id: "parks", description: "NYC Parks properties", minzoom: firstTile(style.parkMinZoom), maxzoom: maxZoom,
                              fields: ["name": "String", "area": "Number"]),
            VectorLayerSchema(id: "streets", description: "Streets by OpenStreetMap highway class", minzoom: firstTile(streetsFrom),
                              maxzoom: maxZoom, fields: ["class": "String", "name": "String"]),
        ]
        if let placesFrom {
            layers.append(VectorLayerSchema(id: "places", description: "Label points of neighbourhoods, parks and waters",
                                            minzoom: firstTile(placesFrom), maxzoom: maxZoom,
                                            fields: ["kind": "String", "name": "String", "area": "Number", "minzoom": "Number", "angle": "Number"]))
        }
        if let places = style.places {
            layers.append(VectorLayerSchema(id: "transit", description: "Subway stations (GTFS stations): a mark, and the name from minzoom",
                                            minzoom: firstTile(places.stationMark.minZoom), maxzoom: maxZoom,
                                            fields: ["kind": "String", "name": "String", "minzoom": "Number"]))
        }
        return layers
    }
}
