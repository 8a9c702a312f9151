import Foundation
import GeoCore
import Testing
@testable import VectorTiles

/// Land and water stitched along the square's edge from the pieces of rings cut by it, against the exact area of
/// each ring inside the square (Sutherland–Hodgman's, whose area is exact even where its rings double back).
@Suite struct EdgeStitcherTests {
    let clipper = TileClipper(extent: 4096, buffer: 80)
    var stitcher: EdgeStitcher { EdgeStitcher(low: -80, high: 4176) }

    /// A star-shaped ring around a centre (clockwise on screen: an exterior), on whole units.
    static func star(_ random: inout SplitMix64) -> [TilePoint] {
        let (cx, cy) = (Double.random(in: -1500...5500, using: &random), Double.random(in: -1500...5500, using: &random))
        let count = Int.random(in: 5...40, using: &random)
        return (0..<count).map { index in
            let angle = 2 * Double.pi * Double(index) / Double(count)
            let radius = Double.random(in: 200...3000, using: &random)
            return TilePoint(x: Int32((cx + radius * cos(angle)).rounded()), y: Int32((cy + radius * sin(angle)).rounded()))
        }
    }

    /// The pieces of a ring inside the square, each from its edge to its edge (as TileFrame.cut makes them).
    func pieces(_ ring: [TilePoint]) -> [[TilePoint]]? {
        let inside = { (p: TilePoint) in (-80...4176).contains(p.x) && (-80...4176).contains(p.y) }
        guard let outside = ring.firstIndex(where: { !inside($0) }) else { return nil }
        let order = Array(ring[outside...]) + Array(ring[..<outside]) + [ring[outside]]
        return clipper.clip(line: order.map { Double($0.x) }, order.map { Double($0.y) }).map { piece in
            EdgeStitcher.withoutRepeats(zip(piece.xs, piece.ys).map { TilePoint(x: Int32($0.rounded()), y: Int32($1.rounded())) })
        }.filter { $0.count >= 2 }
    }

    @Test func stitchedLandAndWaterHaveTheExactAreasInsideTheSquare() {
        var random = SplitMix64(seed: 41)
        let square = 4256.0 * 4256.0
        var stitched = 0
        for _ in 0..<300 {
            let ring = Self.star(&random)
            guard TilePath.doubleArea(ring) > 0 else { continue }
            let (xs, ys) = clipper.clip(ring: ring.map { Double($0.x) }, ring.map { Double($0.y) })
            let expected = xs.count >= 3 ? abs(TileGeometryTests.area(xs, ys)) : 0
            guard let cut = pieces(ring), !cut.isEmpty else { continue }
            stitched += 1
            let land = stitcher.rings(cut).map { Double(TilePath.doubleArea($0)) / 2 }.reduce(0, +)
            let water = stitcher.rings(cut.map { $0.reversed() }).map { Double(TilePath.doubleArea($0)) / 2 }.reduce(0, +)
            // Rounding a crossing point to whole units moves it at most half a unit along the square's side: a sliver
            // of at most half a unit times the side at each of a piece's two ends.
            let tolerance = Double(cut.count) * 2 * 0.5 * 4256 / 2
            #expect(abs(land - expected) <= tolerance, "land \(land) against \(expected)")
            #expect(abs(land + water - square) <= tolerance, "land and water tile the square")
            #expect(stitcher.rings(cut).allSatisfy { TilePath.doubleArea($0) > 0 }, "every stitched ring is an exterior")
        }
        #expect(stitched > 100)
    }
}
