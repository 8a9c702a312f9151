import Foundation
import GeoCore
import Testing
@testable import Raster

/// The distance field against brute force: for a shape of whole pixels, every pixel's encoded distance is the
/// distance to the nearest pixel centre on the other side, as a search over all pixels finds it.
@Suite struct SignedDistanceFieldTests {
    @Test func distancesMatchABruteForceSearch() {
        let (width, height, buffer, radius, cutoff) = (23, 17, 3, 8.0, 0.25)
        var random = SplitMix64(seed: 3)
        var coverage = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (dx, dy) = (Double(x) - 9, Double(y) - 8)
                if dx * dx / 49 + dy * dy / 25 <= 1 || random.next() % 13 == 0 { coverage[y * width + x] = 255 }
            }
        }
        let field = SignedDistanceField.make(coverage: coverage, width: width, height: height, buffer: buffer, radius: radius, cutoff: cutoff)
        let (fieldWidth, fieldHeight) = (width + 2 * buffer, height + 2 * buffer)
        #expect(field.count == fieldWidth * fieldHeight)
        func inside(_ x: Int, _ y: Int) -> Bool {
            let (gx, gy) = (x - buffer, y - buffer)
            return gx >= 0 && gy >= 0 && gx < width && gy < height && coverage[gy * width + gx] == 255
        }
        for y in 0..<fieldHeight {
            for x in 0..<fieldWidth {
                let wanted = !inside(x, y)
                var nearest = Double.infinity
                for v in 0..<fieldHeight {
                    for u in 0..<fieldWidth where inside(u, v) == wanted {
                        nearest = min(nearest, hypot(Double(u - x), Double(v - y)))
                    }
                }
                // Whole pixels: the distance between pixel centres, negative inside (TinySDF's convention).
                let distance = wanted ? nearest : -nearest
                let expected = min(max((255 - 255 * (distance / radius + cutoff)).rounded(), 0), 255)
                #expect(abs(Double(field[y * fieldWidth + x]) - expected) <= 1, "(\(x), \(y))")
            }
        }
    }
}

