import Foundation
import GeoCore
import Raster
import Testing
@testable import BaseMap

/// Water names stay on the water at every zoom: the rectangle holding a name's ink and halo, wherever the name is
/// placed (and wherever pins may move it), lies inside the water, checked here against the shoreline's rings by
/// brute force (no land edge crosses it, no land vertex is inside it, its corners are water).
@Suite("Water names on the water")
struct WaterNameTests {
    /// The land's rings near a box, as segments, with every vertex of them.
    static func landEdges(_ store: BaseMapStore, near box: MercatorRect) -> [(MercatorPoint, MercatorPoint)] {
        let table = store.land
        var edges: [(MercatorPoint, MercatorPoint)] = []
        for feature in 0..<table.count where table.bounds(of: feature).intersects(box) {
            for part in table.parts(of: feature) {
                let ring = table.points(ofPart: part).map { MercatorPoint(x: table.xs[$0], y: table.ys[$0]) }
                edges += zip(ring, ring.dropFirst() + ring.prefix(1)).map { ($0, $1) }
            }
        }
        return edges
    }

    static func cross(_ o: MercatorPoint, _ a: MercatorPoint, _ b: MercatorPoint) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }

    static func segmentsMeet(_ p: MercatorPoint, _ q: MercatorPoint, _ r: MercatorPoint, _ s: MercatorPoint) -> Bool {
        let (d1, d2, d3, d4) = (cross(r, s, p), cross(r, s, q), cross(p, q, r), cross(p, q, s))
        return (d1 * d2 <= 0) && (d3 * d4 <= 0)
    }

    /// Whether a convex quadrilateral (mercator) lies in the water of the store's shoreline.
    static func onWater(_ corners: [MercatorPoint], store: BaseMapStore) -> Bool {
        let box = MercatorRect(minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!, maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!)
        let edges = landEdges(store, near: box)
        // Corners: even-odd over every land edge (a ray to the east).
        for corner in corners {
            var inside = false
            for (a, b) in edges where (a.y > corner.y) != (b.y > corner.y) {
                if corner.x < a.x + (corner.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
            }
            if inside { return false }
        }
        let sides = zip(corners, corners.dropFirst() + corners.prefix(1))
        for (a, b) in edges where max(a.x, b.x) >= box.minX && min(a.x, b.x) <= box.maxX && max(a.y, b.y) >= box.minY && min(a.y, b.y) <= box.maxY {
            if sides.contains(where: { segmentsMeet($0.0, $0.1, a, b) }) { return false }
            // A vertex strictly inside the quadrilateral (same side of every side).
            let signs = sides.map { cross($0.0, $0.1, a) }
            if signs.allSatisfy({ $0 > 0 }) || signs.allSatisfy({ $0 < 0 }) { return false }
        }
        return true
    }

    /// Frames of 393×852 points over the East River, Newtown Creek and Wallabout Bay from z11 to z20 by half zooms,
    /// and at random centres around them: every water name placed, and every place it may move to, is on the water;
    /// the East River is named at most zooms.
    @Test func waterNamesLieInsideTheWaterAtEveryZoom() throws {
        let renderer = try Fixtures.renderer()
        let store = try Fixtures.store.get()
        var random = SplitMix64(seed: 7)
        var frames: [(Coordinate, Double)] = []
        for zoom in stride(from: 11.0, through: 20.0, by: 0.5) {
            for (lat, lon) in [(40.7180, -73.9700), (40.7375, -73.9470), (40.7025, -73.9745)] { frames.append((try Coordinate(lat: lat, lon: lon), zoom)) }
        }
        for _ in 0..<40 {
            frames.append((try Coordinate(lat: Double.random(in: 40.69...40.75, using: &random), lon: Double.random(in: -73.99 ... -73.94, using: &random)),
                           Double.random(in: 11...20, using: &random)))
        }
        var checked = 0
        var riverZooms = Set<Double>()
        for (centre, zoom) in frames {
            let view = MapView(viewport: try Viewport(center: centre, zoom: zoom, size: ScreenSize(width: 393, height: 852), scale: 1))
            let halo = try #require(renderer.style.places).haloWidth
            for name in renderer.placeNames(for: view) where name.kind == .water {
                if name.name == "East River" { riverZooms.insert(zoom) }
                for outline in [name.outline(0)] + name.alternatives {
                    let corners = outline.footprint(halo: halo).map { point in
                        MercatorPoint(x: view.origin.x + point.x / view.pixelsPerMetre, y: view.origin.y - point.y / view.pixelsPerMetre)
                    }
                    #expect(Self.onWater(corners, store: store), "\(name.name) at z\(zoom) around \(centre): \(corners)")
                    checked += 1
                }
            }
        }
        #expect(checked > 40, "\(checked) water names checked")
        // Below z13 its name is longer than any straight reach of the river (it was written across Manhattan and
        // Brooklyn); beyond z15.5 its places lie outside a frame centred on the seed.
        #expect(Set(stride(from: 13.0, through: 15.5, by: 0.5)).isSubset(of: riverZooms), "the East River is named at zooms \(riverZooms.sorted())")
    }

    /// The brute-force check above can fail: a box across Williamsburg's shore is not on the water.
    @Test func aBoxAcrossTheShoreIsNotOnTheWater() throws {
        let store = try Fixtures.store.get()
        let (west, east) = (WebMercator.projectUnchecked(lat: 40.7160, lon: -73.9700), WebMercator.projectUnchecked(lat: 40.7160, lon: -73.9600))
        let corners = [MercatorPoint(x: west.x, y: west.y - 20), MercatorPoint(x: east.x, y: east.y - 20), MercatorPoint(x: east.x, y: east.y + 20),
                       MercatorPoint(x: west.x, y: west.y + 20)]
        #expect(!Self.onWater(corners, store: store))
        let river = WebMercator.projectUnchecked(lat: 40.7180, lon: -73.9700)
        #expect(Self.onWater([MercatorPoint(x: river.x - 30, y: river.y - 10), MercatorPoint(x: river.x + 30, y: river.y - 10),
                              MercatorPoint(x: river.x + 30, y: river.y + 10), MercatorPoint(x: river.x - 30, y: river.y + 10)], store: store))
    }
}
