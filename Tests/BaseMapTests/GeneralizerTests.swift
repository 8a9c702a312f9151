import Foundation
import GeoCore
import Raster
import Testing
@testable import BaseMap

/// A ring much larger than the canvas it is filled on (the city's land around one band of a frame) loses the
/// points that only run above or below the canvas's rows, and fills exactly the same pixels.
@Suite("Rings filled on a band")
struct GeneralizerTests {
    /// One ring of `count` points wandering far above, below, left and right of a 200×100 view, with stretches
    /// through it.
    private static func ring(count: Int) -> FeatureTable {
        var random = SplitMix64(seed: 77)
        var table = FeatureTable()
        for index in 0..<count {
            let angle = 2 * Double.pi * Double(index) / Double(count)
            let radius = index % 40 < 30 ? 150 + 900 * Double(random.next() % 1000) / 1000 : 20 + 60 * Double(random.next() % 1000) / 1000
            table.xs.append(100 + radius * cos(angle) * 1.7)
            table.ys.append(-50 + radius * sin(angle))
        }
        table.partEnds = [count]
        table.featureEnds = [1]
        table.minXs = [table.xs.min()!]
        table.maxXs = [table.xs.max()!]
        table.minYs = [table.ys.min()!]
        table.maxYs = [table.ys.max()!]
        table.classes = [0]
        table.names = [""]
        table.values = [0]
        return table
    }

    @Test(arguments: [0, 37])
    func ringsKeepOnlyWhatReachesTheRowsAndFillTheSame(originY: Int) throws {
        let table = Self.ring(count: 4000)
        let view = MapView(origin: MercatorPoint(x: 0, y: 0), pixelsPerMetre: 1, width: 200, height: 100, zoom: 15, scale: 1)
        let generalizer = Generalizer(view: view, tolerancePixels: 0.01, minAreaPixels: 0)
        let whole = generalizer.contour(table, part: 0, closed: true)
        let canvas = { try Canvas(width: 200, height: 100, background: .white, originY: originY) }
        let rows = Double(originY)..<Double(originY + 100)
        let trimmed = generalizer.rings(table, features: [0], rows: rows)
        let (full, cut) = (try canvas(), try canvas())
        full.fill(contours: [whole], paint: .solid(Color(r: 30, g: 140, b: 60, a: 255)))
        cut.fill(contours: trimmed, paint: .solid(Color(r: 30, g: 140, b: 60, a: 255)))
        let pixels = full.straightRGBA8()
        let same = cut.straightRGBA8() == pixels
        #expect(same, "the fill without the trimmed points")
        #expect(pixels.contains(255) && pixels.contains(140), "the ring's edge crosses the canvas")
        #expect(trimmed.count == 1 && trimmed[0].points.count < whole.points.count / 2, "\(trimmed.first?.points.count ?? 0) of \(whole.points.count) points")
        let between = whole.points.filter { rows.contains($0.y) }.count
        #expect(trimmed[0].points.count >= between)
    }
}
