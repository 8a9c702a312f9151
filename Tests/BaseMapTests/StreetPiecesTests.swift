@testable import BaseMap
import Foundation
import GeoCore
import Testing

/// The street pieces near places (what Footsteps tints and measures) against a brute force: every street point in
/// the area, a metre apart, is in a piece exactly when its geodesic distance to the nearest place is within the radius.
struct StreetPiecesTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func piecesHoldExactlyTheStreetPointsNearAPlace(seed: UInt64) throws {
        let store = try Fixtures.store.get()
        var random = SplitMix64(seed: seed)
        let centre = WebMercator.projectUnchecked(lat: 40.7140, lon: -73.9600)
        let area = MercatorRect(minX: centre.x - 300, minY: centre.y - 300, maxX: centre.x + 300, maxY: centre.y + 300)
        // Places inside the area and beyond its edge, so pieces near the edge come from places outside it too.
        let places = (0..<12).map { _ in MercatorPoint(x: centre.x + (random.unit() - 0.5) * 800, y: centre.y + (random.unit() - 0.5) * 800) }
        let radius = 50.0
        let pieces = store.streetPieces(near: places, radiusMeters: radius, in: area)
        let coordinates = places.map(WebMercator.unprojectUnchecked)
        var (inside, outside, total) = (0, 0, 0.0)
        for feature in BaseMapStore.features(of: store.streets, grid: store.streetGrid, in: area) {
            for part in store.streets.parts(of: feature) {
                for index in store.streets.points(ofPart: part).dropLast() {
                    let a = MercatorPoint(x: store.streets.xs[index], y: store.streets.ys[index])
                    let b = MercatorPoint(x: store.streets.xs[index + 1], y: store.streets.ys[index + 1])
                    let ground = StreetPiece(street: .residential, from: a, to: b).groundLength
                    let steps = max(1, Int(ground.rounded(.up)))
                    for step in 0...steps {
                        let t = Double(step) / Double(steps)
                        let point = MercatorPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                        // Streets reach beyond the area; only their points inside it are promised.
                        guard (area.minX...area.maxX).contains(point.x), (area.minY...area.maxY).contains(point.y) else { continue }
                        let nearest = coordinates.map { Geodesic.wgs84.distance($0, WebMercator.unprojectUnchecked(point)) }.min() ?? .infinity
                        // The pieces measure on the sphere's scale, the brute force on the ellipsoid: 0.5 m apart at most here.
                        guard abs(nearest - radius) > 0.5 else { continue }
                        let covered = pieces.contains { Self.distance(point, $0.from, $0.to) < 1e-6 }
                        #expect(covered == (nearest < radius), "point \(point) at \(nearest) m")
                        if nearest < radius { inside += 1 } else { outside += 1 }
                    }
                    total += ground
                }
            }
        }
        #expect(inside > 100 && outside > 100, "the sample holds both: \(inside) near, \(outside) far over \(total) m of street")
    }

    @Test func noPlacesOrAFarPlaceMakeNoPieces() throws {
        let store = try Fixtures.store.get()
        let centre = WebMercator.projectUnchecked(lat: 40.7140, lon: -73.9600)
        let area = MercatorRect(minX: centre.x - 200, minY: centre.y - 200, maxX: centre.x + 200, maxY: centre.y + 200)
        #expect(store.streetPieces(near: [], radiusMeters: 50, in: area).isEmpty)
        #expect(store.streetPieces(near: [MercatorPoint(x: centre.x + 5_000, y: centre.y)], radiusMeters: 50, in: area).isEmpty)
        #expect(!store.streetPieces(near: [centre], radiusMeters: 50, in: area).isEmpty, "Williamsburg has a street within 50 m of its middle")
    }

    /// The distance from `p` to the segment a→b, in mercator metres.
    static func distance(_ p: MercatorPoint, _ a: MercatorPoint, _ b: MercatorPoint) -> Double {
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2)) : 0
        return hypot(p.x - a.x - t * dx, p.y - a.y - t * dy)
    }
}
