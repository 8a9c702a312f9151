import Foundation
import GeoCore

/// The NYC 2020 neighbourhoods (residential NTAs, one per plain name, as the place names have them) as polygons in
/// mercator metres, read from the base map's sources: what a person's explored share is measured over. A street's
/// length belongs to the neighbourhood holding the middle of each of its `cutMeters` cuts.
public struct Neighbourhoods: Sendable {
    /// One neighbourhood: its name, its polygons' rings (outer rings and holes, read even-odd) and their bounds.
    public struct Area: Sendable {
        public let name: String
        public let rings: [[MercatorPoint]]
        public let bounds: MercatorRect
    }

    /// Streets are measured in cuts of at most this many metres on the ground, each wholly in the area of its middle.
    public static let cutMeters = 10.0

    public let areas: [Area]

    /// Reads the neighbourhoods file of the base map's sources.
    public static func load(sourceDirectory: URL) throws(DataFileError) -> Neighbourhoods {
        var names: [String] = []
        var rings: [String: [[MercatorPoint]]] = [:]
        for feature in try GeoJSONReader.read(sourceDirectory.appendingPathComponent(PlaceImporter.neighbourhoodsFile)) {
            guard case .polygons(let polygons) = feature.geometry, feature.properties["nta_type"]?.stringValue == PlaceImporter.residentialType,
                  let name = feature.properties["name"]?.stringValue.map(PlaceImporter.plainName) else { continue }
            if rings[name] == nil { names.append(name) }
            rings[name, default: []] += polygons.flatMap { $0.map { ring in ring.map { WebMercator.projectUnchecked(lat: $0.y, lon: $0.x) } } }
        }
        return Neighbourhoods(areas: names.map { name in
            let points = rings[name]!.flatMap { $0 }
            let bounds = MercatorRect(minX: points.map(\.x).min() ?? 0, minY: points.map(\.y).min() ?? 0,
                                      maxX: points.map(\.x).max() ?? 0, maxY: points.map(\.y).max() ?? 0)
            return Area(name: name, rings: rings[name]!, bounds: bounds)
        })
    }

    /// The index of the area holding `point`, nil when none does (the areas do not overlap).
    public func area(containing point: MercatorPoint) -> Int? {
        areas.indices.first { contains($0, point) }
    }

    /// Whether the area at `index` holds `point` (even-odd over its rings).
    public func contains(_ index: Int, _ point: MercatorPoint) -> Bool {
        let area = areas[index]
        guard (area.bounds.minX...area.bounds.maxX).contains(point.x), (area.bounds.minY...area.bounds.maxY).contains(point.y) else { return false }
        var inside = false
        for ring in area.rings {
            var previous = ring.count - 1
            for current in ring.indices {
                let (a, b) = (ring[previous], ring[current])
                if (a.y > point.y) != (b.y > point.y), point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
                previous = current
            }
        }
        return inside
    }

    /// The ground length of `pieces` in each area, by index (each cut where its middle is; cuts outside every area
    /// count nowhere).
    public func lengths(of pieces: [StreetPiece]) -> [Int: Double] {
        var lengths: [Int: Double] = [:]
        var last: Int?
        for piece in pieces {
            let length = piece.groundLength
            let cuts = max(1, Int((length / Self.cutMeters).rounded(.up)))
            for cut in 0..<cuts {
                let middle = BaseMapStore.point(piece.from, piece.to, (Double(cut) + 0.5) / Double(cuts))
                // Consecutive cuts mostly share an area: try the last one first.
                let index = last.flatMap { contains($0, middle) ? $0 : nil } ?? area(containing: middle)
                if let index { lengths[index, default: 0] += length / Double(cuts) }
                last = index ?? last
            }
        }
        return lengths
    }

    /// The ground length of every street in the area at `index`, in metres.
    public func streetLength(of store: BaseMapStore, in index: Int) -> Double {
        var total = 0.0
        for piece in streets(of: store, in: index) {
            let length = piece.groundLength
            let cuts = max(1, Int((length / Self.cutMeters).rounded(.up)))
            for cut in 0..<cuts where contains(index, BaseMapStore.point(piece.from, piece.to, (Double(cut) + 0.5) / Double(cuts))) {
                total += length / Double(cuts)
            }
        }
        return total
    }

    /// The pieces of every street of `store` that meet the area at `index`'s bounds (whole segments).
    public func streets(of store: BaseMapStore, in index: Int) -> [StreetPiece] {
        let bounds = areas[index].bounds
        var pieces: [StreetPiece] = []
        for feature in BaseMapStore.features(of: store.streets, grid: store.streetGrid, in: bounds) {
            guard let street = StreetClass(rank: store.streets.classes[feature]) else { continue }
            for part in store.streets.parts(of: feature) {
                for point in store.streets.points(ofPart: part).dropLast() {
                    pieces.append(StreetPiece(street: street, from: MercatorPoint(x: store.streets.xs[point], y: store.streets.ys[point]),
                                              to: MercatorPoint(x: store.streets.xs[point + 1], y: store.streets.ys[point + 1])))
                }
            }
        }
        return pieces
    }
}
