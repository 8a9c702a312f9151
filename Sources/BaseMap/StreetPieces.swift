import Foundation
import GeoCore

/// A part of one street segment, in mercator metres, with the street's class: what the Footsteps layer tints and
/// what a neighbourhood's explored share measures.
public struct StreetPiece: Hashable, Sendable {
    public let street: StreetClass
    public let from: MercatorPoint
    public let to: MercatorPoint

    /// The piece's length on the ground, in metres (mercator metres shrunk by the scale at its middle).
    public var groundLength: Double {
        hypot(to.x - from.x, to.y - from.y) / cosh((from.y + to.y) / 2 / WebMercator.earthRadius)
    }
}

extension BaseMapStore {
    /// The pieces of the streets whose bounds meet `area` that lie within `radiusMeters` on the ground of any of
    /// `places`: of each segment, the union of its parts inside the places' discs, in street, part and segment order.
    public func streetPieces(near places: [MercatorPoint], radiusMeters: Double, in area: MercatorRect) -> [StreetPiece] {
        let reach = radiusMeters * cosh(max(abs(area.minY), abs(area.maxY)) / WebMercator.earthRadius)
        let around = Self.placesArea(radiusMeters: radiusMeters, in: area)
        let near = PlaceBuckets(places.filter { (around.minX...around.maxX).contains($0.x) && (around.minY...around.maxY).contains($0.y) },
                                cell: max(reach, 1))
        guard !near.isEmpty else { return [] }
        var pieces: [StreetPiece] = []
        for feature in Self.features(of: streets, grid: streetGrid, in: area) {
            guard let street = StreetClass(rank: streets.classes[feature]) else { continue }
            for part in streets.parts(of: feature) {
                let points = streets.points(ofPart: part)
                for index in points.dropLast() {
                    let a = MercatorPoint(x: streets.xs[index], y: streets.ys[index])
                    let b = MercatorPoint(x: streets.xs[index + 1], y: streets.ys[index + 1])
                    for (t0, t1) in near.coveredSpans(from: a, to: b, radiusMeters: radiusMeters) {
                        pieces.append(StreetPiece(street: street, from: Self.point(a, b, t0), to: Self.point(a, b, t1)))
                    }
                }
            }
        }
        return pieces
    }

    /// Where the places that `streetPieces(near:radiusMeters:in:)` reads lie: it passes over every other place.
    public static func placesArea(radiusMeters: Double, in area: MercatorRect) -> MercatorRect {
        area.outset(by: radiusMeters * cosh(max(abs(area.minY), abs(area.maxY)) / WebMercator.earthRadius))
    }

    static func point(_ a: MercatorPoint, _ b: MercatorPoint, _ t: Double) -> MercatorPoint {
        MercatorPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
}

/// Places bucketed by square cells, for the places near a segment.
struct PlaceBuckets {
    let cell: Double
    private var buckets: [Int64: [MercatorPoint]] = [:]

    init(_ places: [MercatorPoint], cell: Double) {
        self.cell = cell
        for place in places { buckets[key(Int64((place.x / cell).rounded(.down)), Int64((place.y / cell).rounded(.down))), default: []].append(place) }
    }

    var isEmpty: Bool { buckets.isEmpty }

    private func key(_ x: Int64, _ y: Int64) -> Int64 { x &* 1_000_003 &+ y }

    /// The spans (0…1 along a→b) of the segment within `radiusMeters` on the ground of a place, merged, in order.
    /// A place's disc is `radiusMeters` scaled to mercator metres at the place's own latitude.
    func coveredSpans(from a: MercatorPoint, to b: MercatorPoint, radiusMeters: Double) -> [(Double, Double)] {
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else { return [] }
        let reach = radiusMeters * cosh(max(abs(a.y), abs(b.y)) / WebMercator.earthRadius) + cell
        let (x0, x1) = (Int64(((min(a.x, b.x) - reach) / cell).rounded(.down)), Int64(((max(a.x, b.x) + reach) / cell).rounded(.down)))
        let (y0, y1) = (Int64(((min(a.y, b.y) - reach) / cell).rounded(.down)), Int64(((max(a.y, b.y) + reach) / cell).rounded(.down)))
        var spans: [(Double, Double)] = []
        for x in x0...x1 {
            for y in y0...y1 {
                for place in buckets[key(x, y)] ?? [] {
                    let r = radiusMeters * cosh(place.y / WebMercator.earthRadius)
                    let (fx, fy) = (a.x - place.x, a.y - place.y)
                    let c = fx * fx + fy * fy - r * r
                    let half = fx * dx + fy * dy
                    let discriminant = half * half - length2 * c
                    guard discriminant >= 0 else { continue }
                    let root = discriminant.squareRoot()
                    let (t0, t1) = (max(0, (-half - root) / length2), min(1, (-half + root) / length2))
                    if t0 < t1 { spans.append((t0, t1)) }
                }
            }
        }
        spans.sort { $0.0 < $1.0 }
        var merged: [(Double, Double)] = []
        for span in spans {
            if let last = merged.last, span.0 <= last.1 { merged[merged.count - 1].1 = max(last.1, span.1) } else { merged.append(span) }
        }
        return merged
    }
}
