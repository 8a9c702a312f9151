import Foundation
import GeoCore
import Testing
@testable import VectorTiles

/// A zoom 14 tile and the 2×2 zoom 15 tiles that refine it describe the same map (measured with Shapely).
@Suite struct RefinementTests {
    struct Areas: Decodable {
        let area: Double
        let childrenArea: Double
        let difference: Double
        /// The length of the parent's edges (and the tile's sides where it meets them).
        let boundary: Double
    }

    struct Names: Decodable {
        let parent: [String]
        let children: [String]
    }

    struct Report: Decodable {
        let water: Areas
        let land: Areas
        let parks: Areas
        /// Length by class: [in the parent, in the children].
        let streets: [String: [Double]]
        let parksNamed: Names
        let placesNamed: Names
    }

    @Test(arguments: [(0, 0), (-1, 0), (0, 1)])
    func twoByTwoAtZoomFifteenAgreeWithTheTileTheyRefine(offset: (Int, Int)) throws {
        let center = try VectorFixture.williamsburg(zoom: 14)
        let parent = try TileID(z: 14, x: center.x + offset.0, y: center.y + offset.1)
        let directory = try VectorFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try VectorFixture.write([parent] + parent.children, into: directory)
        let output = try VectorFixture.run(VectorFixture.python, [VectorFixture.decoder, "refine", directory.path, "14", "\(parent.x)", "\(parent.y)"])
        let report = try JSONDecoder().decode(Report.self, from: Data(output.utf8))
        let square = 4096.0 * 4096
        // Water is the square less the land (Shapely's repair of rings that rounding made touch may move a sliver).
        #expect(abs(report.water.area + report.land.area - square) <= 1e-3 * square, "water and land tile the square")
        for (name, areas) in [("water", report.water), ("land", report.land), ("parks", report.parks)] {
            // Each zoom keeps edges within a unit of the source (half a parent unit at zoom 15) and rounds: what
            // differs is a band along the edges, a unit or two wide.
            #expect(areas.difference <= 2 * areas.boundary, "\(name) \(areas)")
            #expect(abs(areas.area - areas.childrenArea) <= areas.boundary, "\(name) \(areas)")
        }
        let engine = try VectorFixture.engine.get()
        for (street, lengths) in report.streets where lengths[0] > 0 {
            #expect(abs(lengths[0] - lengths[1]) <= 0.002 * lengths[0] + 4, "\(street) \(lengths)")
        }
        #expect(Set(report.parksNamed.parent).isSubset(of: report.parksNamed.children))
        // Names that the style still shows at zoom 15's tiles carry over (neighbourhoods end at 15.4).
        let kept = report.placesNamed.parent.filter { entry in
            let kind = String(entry.prefix { $0 != "/" })
            let layer = engine.baseMap.style.places?.layers[VectorTileMaker.kindNames.firstIndex(of: kind) ?? 0]
            return (layer?.maxZoom ?? 0) >= 16
        }
        #expect(Set(kept).isSubset(of: report.placesNamed.children), "\(kept) ⊆ \(report.placesNamed.children)")
        #expect(report.land.area > 0)
    }
}
