import BaseMap
import Foundation
import GeoCore
import VectorTiles

/// The imported base map written back as GeoJSON (WGS 84), one file per vector tile layer, with tippecanoe's
/// per-feature `minzoom` set to the first tile zoom our tiles hold each feature at: the same input for both.
enum GeoJSONExport {
    static func write(store: BaseMapStore, style: MapStyle, into directory: URL) throws -> [(layer: String, file: URL)] {
        var files: [(String, URL)] = []
        func save(_ layer: String, _ features: [String]) throws {
            let url = directory.appendingPathComponent(layer + ".geojson")
            try Data(("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n").utf8).write(to: url)
            files.append((layer, url))
        }
        try save("land", (0..<store.land.count).map { polygons(store.land, $0, properties: [:], minZoom: nil) })
        let parkZoom = VectorLayerSchema.firstTile(style.parkMinZoom)
        try save("parks", (0..<store.parks.count).map { polygons(store.parks, $0, properties: ["name": quoted(store.parks.names[$0])], minZoom: parkZoom) })
        try save("streets", (0..<store.streets.count).compactMap { index in
            guard let street = StreetClass(rank: store.streets.classes[index]) else { return nil }
            let lines = store.streets.parts(of: index).map { coordinates(store.streets, part: $0) }
            return feature("{\"type\":\"MultiLineString\",\"coordinates\":[\(lines.joined(separator: ","))]}",
                           properties: ["class": quoted(street.rawValue), "name": quoted(store.streets.names[index])],
                           minZoom: VectorLayerSchema.firstTile(style.street(street).minZoom))
        })
        try save("places", (0..<store.places.count).compactMap { index in
            guard let kind = PlaceKind(rawValue: store.places.classes[index]), kind != .station, let look = style.places?.layer(kind) else { return nil }
            let first = store.places.points(ofPart: store.places.parts(of: index).lowerBound).lowerBound
            let point = WebMercator.unprojectUnchecked(MercatorPoint(x: store.places.xs[first], y: store.places.ys[first]))
            let from = max(look.minZoom, VectorTileMaker.zoom(showing: store.places.values[index], atLeast: look.minAreaPoints))
            return feature("{\"type\":\"Point\",\"coordinates\":[\(number(point.lon)),\(number(point.lat))]}",
                           properties: ["kind": quoted(VectorTileMaker.kindNames[Int(kind.rawValue)]), "name": quoted(store.places.names[index]),
                                        "area": String(Int(store.places.values[index].rounded()))],
                           minZoom: VectorLayerSchema.firstTile(from))
        })
        if let places = style.places {
            try save("transit", (0..<store.places.count).compactMap { index in
                guard store.places.classes[index] == PlaceKind.station.rawValue else { return nil }
                let first = store.places.points(ofPart: store.places.parts(of: index).lowerBound).lowerBound
                let point = WebMercator.unprojectUnchecked(MercatorPoint(x: store.places.xs[first], y: store.places.ys[first]))
                let nameZoom = ((places.layer(.station).minZoom - MapLibreStyle.zoomOffset) * 100).rounded() / 100
                return feature("{\"type\":\"Point\",\"coordinates\":[\(number(point.lon)),\(number(point.lat))]}",
                               properties: ["kind": quoted("subway"), "name": quoted(store.places.names[index]), "minzoom": String(nameZoom)],
                               minZoom: VectorLayerSchema.firstTile(places.stationMark.minZoom))
            })
        }
        return files
    }

    /// A feature's parts as polygons: each clockwise (outer) ring starts one, the rings after it are its holes.
    private static func polygons(_ table: FeatureTable, _ index: Int, properties: [String: String], minZoom: Int?) -> String {
        var polygons: [[String]] = []
        for part in table.parts(of: index) {
            let range = table.points(ofPart: part)
            var area = 0.0
            var previous = range.upperBound - 1
            for point in range {
                area += table.xs[previous] * table.ys[point] - table.xs[point] * table.ys[previous]
                previous = point
            }
            let ring = coordinates(table, part: part, closed: true)
            if area < 0 || polygons.isEmpty { polygons.append([ring]) } else { polygons[polygons.count - 1].append(ring) }
        }
        let body = polygons.map { "[" + $0.joined(separator: ",") + "]" }.joined(separator: ",")
        return feature("{\"type\":\"MultiPolygon\",\"coordinates\":[\(body)]}", properties: properties, minZoom: minZoom)
    }

    private static func coordinates(_ table: FeatureTable, part: Int, closed: Bool = false) -> String {
        var range = Array(table.points(ofPart: part))
        if closed, let first = range.first { range.append(first) }
        return "[" + range.map { index in
            let point = WebMercator.unprojectUnchecked(MercatorPoint(x: table.xs[index], y: table.ys[index]))
            return "[\(number(point.lon)),\(number(point.lat))]"
        }.joined(separator: ",") + "]"
    }

    private static func feature(_ geometry: String, properties: [String: String], minZoom: Int?) -> String {
        let fields = properties.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
        let zoom = minZoom.map { ",\"tippecanoe\":{\"minzoom\":\($0)}" } ?? ""
        return "{\"type\":\"Feature\",\"properties\":{\(fields)},\"geometry\":\(geometry)\(zoom)}"
    }

    private static func number(_ value: Double) -> String { String(format: "%.7f", value) }

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
