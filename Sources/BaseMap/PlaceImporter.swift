import Foundation
import GeoCore

/// What a place label names: its class in the places table.
public enum PlaceKind: UInt8, CaseIterable, Sendable {
    case neighbourhood = 0
    case park = 1
    case water = 2
}

/// Builds the places table at import: a label point and an area per neighbourhood (NYC 2020 NTAs, residential
/// ones), park (NYC Parks properties) and named water (the water names file, shaped from the shoreline). Each
/// place is one part: where its label goes, a point along the direction it is written (east for upright labels,
/// along a water's long axis), then for neighbourhoods a few other points well inside, where the label may go
/// when pins cover the first.
enum PlaceImporter {
    static let neighbourhoodsFile = "neighborhoods.geojson"
    /// NTA type "0" is residential; the others are parks, cemeteries, airports and the like.
    static let residentialType = "0"
    /// Label points are found to within this many metres.
    static let precision = 5.0
    /// Parks smaller than this many square metres are not labelled at any zoom.
    static let smallestPark = 2_000.0
    /// Other label points kept per neighbourhood.
    static let neighbourhoodAlternatives = 6

    static func places(sourceDirectory: URL, parks: FeatureTable, land: BaseMapStore, waterNames: URL) throws(DataFileError) -> FeatureTable {
        var places = FeatureTable()
        // Areas that share a name once their qualifiers go are one place: named once, at the largest polygon's pole.
        var names: [String] = []
        var areas: [String: [[[MercatorPoint]]]] = [:]
        for feature in try GeoJSONReader.read(sourceDirectory.appendingPathComponent(neighbourhoodsFile)) {
            guard case .polygons(let polygons) = feature.geometry, feature.properties["nta_type"]?.stringValue == residentialType,
                  let name = feature.properties["name"]?.stringValue.map(plainName) else { continue }
            if areas[name] == nil { names.append(name) }
            areas[name, default: []] += polygons.map { $0.map { ring in ring.map { WebMercator.projectUnchecked(lat: $0.y, lon: $0.x) } } }
        }
        for name in names {
            add(largestOf: areas[name]!, kind: .neighbourhood, name: name, alternatives: neighbourhoodAlternatives, to: &places)
        }
        // A one-word park name is a placeholder in the source ("Park", "Lot", "Triangle"), not a name.
        for index in 0..<parks.count where parks.names[index].split(separator: " ").count > 1 {
            let rings = parks.parts(of: index).map { part in parks.points(ofPart: part).map { MercatorPoint(x: parks.xs[$0], y: parks.ys[$0]) } }
            // Parts are outer rings (clockwise) and holes (counter-clockwise): each outer ring starts a polygon.
            var polygons: [[[MercatorPoint]]] = []
            for ring in rings where ring.count >= 3 {
                if FeatureTable.signedArea(ring) < 0 || polygons.isEmpty { polygons.append([ring]) } else { polygons[polygons.count - 1].append(ring) }
            }
            guard polygons.map(area).reduce(0, +) >= smallestPark else { continue }
            add(largestOf: polygons, kind: .park, name: parks.names[index], alternatives: 0, to: &places)
        }
        for water in try WaterNames.load(waterNames) {
            let shape = try WaterShape.read(water, land: land, file: waterNames.path)
            places.append(parts: [[shape.anchor, shape.anchor.offset(by: shape.axis)]], featureClass: PlaceKind.water.rawValue, name: water.name,
                          value: shape.area)
        }
        return places
    }

    /// A neighbourhood's name as a New Yorker writes it, without the tabulation's qualifiers in parentheses:
    /// "Bedford-Stuyvesant (West)" is "Bedford-Stuyvesant", "Sunset Park (East)-Borough Park (West)" "Sunset Park-Borough Park".
    static func plainName(_ name: String) -> String {
        var kept = ""
        var depth = 0
        for character in name {
            switch character {
            case "(": depth += 1
            case ")": depth = max(depth - 1, 0)
            default: if depth == 0 { kept.append(character) }
            }
        }
        let words = kept.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return words.replacingOccurrences(of: " -", with: "-").replacingOccurrences(of: "- ", with: "-")
    }

    /// A label at the pole of the largest polygon, with the area of them all.
    private static func add(largestOf polygons: [[[MercatorPoint]]], kind: PlaceKind, name: String, alternatives: Int, to places: inout FeatureTable) {
        guard let largest = polygons.max(by: { area($0) < area($1) }) else { return }
        let anchor = PoleOfInaccessibility.find(largest, precision: precision)
        let others = alternatives > 0 ? PoleOfInaccessibility.alternatives(to: anchor, in: largest, count: alternatives) : []
        places.append(parts: [[anchor, MercatorPoint(x: anchor.x + 1, y: anchor.y)] + others], featureClass: kind.rawValue, name: name,
                      value: polygons.map(area).reduce(0, +))
    }

    /// The area of a polygon (outer ring less its holes), square mercator metres.
    static func area(_ polygon: [[MercatorPoint]]) -> Double {
        guard let outer = polygon.first, outer.count >= 3 else { return 0 }
        return abs(FeatureTable.signedArea(outer)) - polygon.dropFirst().filter { $0.count >= 3 }.map { abs(FeatureTable.signedArea($0)) }.reduce(0, +)
    }
}

extension MercatorPoint {
    func offset(by vector: (x: Double, y: Double)) -> MercatorPoint { MercatorPoint(x: x + vector.x, y: y + vector.y) }
}
