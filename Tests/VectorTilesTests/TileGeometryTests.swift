import Foundation
import GeoCore
import Testing
@testable import VectorTiles

/// Clipping and simplification against exact references: rectangles and L shapes, whose part inside the
/// square is an intersection of rectangles, and lines measured by dense sampling.
@Suite struct TileGeometryTests {
    let clipper = TileClipper(extent: 4096, buffer: 80)

    struct Box {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        var area: Double { max(0, maxX - minX) * max(0, maxY - minY) }
        func meet(_ other: Box) -> Box {
            Box(minX: max(minX, other.minX), minY: max(minY, other.minY), maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
        }
    }

    static func area(_ xs: [Double], _ ys: [Double]) -> Double {
        var sum = 0.0
        var previous = xs.count - 1
        for index in xs.indices {
            sum += xs[previous] * ys[index] - xs[index] * ys[previous]
            previous = index
        }
        return sum / 2
    }

    @Test func ringsKeepExactlyTheirPartInsideTheSquareAndTheirOrientation() {
        var random = SplitMix64(seed: 17)
        let square = Box(minX: -80, minY: -80, maxX: 4176, maxY: 4176)
        for _ in 0..<500 {
            let x0 = Double.random(in: -3000...6000, using: &random), y0 = Double.random(in: -3000...6000, using: &random)
            let a = Box(minX: x0, minY: y0, maxX: x0 + Double.random(in: 10...5000, using: &random), maxY: y0 + Double.random(in: 10...5000, using: &random))
            // An L: the box less its top-right quarter (ring clockwise on screen, y down: positive area).
            let (midX, midY) = ((a.minX + a.maxX) / 2, (a.minY + a.maxY) / 2)
            let xs = [a.minX, midX, midX, a.maxX, a.maxX, a.minX], ys = [a.minY, a.minY, midY, midY, a.maxY, a.maxY]
            let expected = Box(minX: a.minX, minY: a.minY, maxX: midX, maxY: a.maxY).meet(square).area
                + Box(minX: midX, minY: midY, maxX: a.maxX, maxY: a.maxY).meet(square).area
            for reversed in [false, true] {
                let (inXs, inYs) = reversed ? (Array(xs.reversed()), Array(ys.reversed())) : (xs, ys)
                let (outXs, outYs) = clipper.clip(ring: inXs, inYs)
                let area = outXs.count >= 3 ? Self.area(outXs, outYs) : 0
                #expect(abs(abs(area) - expected) <= 1e-6 * max(1, expected))
                if expected > 1 { #expect((area > 0) == !reversed) }
                #expect(zip(outXs, outYs).allSatisfy { square.minX - 1e-9...square.maxX + 1e-9 ~= $0 && square.minY - 1e-9...square.maxY + 1e-9 ~= $1 })
            }
        }
    }

    @Test func linesKeepTheirLengthInsideTheSquare() {
        var random = SplitMix64(seed: 5)
        for _ in 0..<200 {
            let count = Int.random(in: 2...8, using: &random)
            let xs = (0..<count).map { _ in Double.random(in: -2000...6000, using: &random) }
            let ys = (0..<count).map { _ in Double.random(in: -2000...6000, using: &random) }
            let pieces = clipper.clip(line: xs, ys)
            var clipped = 0.0
            for piece in pieces {
                #expect(piece.xs.count >= 2)
                for index in 1..<piece.xs.count { clipped += hypot(piece.xs[index] - piece.xs[index - 1], piece.ys[index] - piece.ys[index - 1]) }
            }
            // Reference: each segment sampled at 20,000 points, the inside share times its length.
            var sampled = 0.0
            for index in 1..<count {
                let length = hypot(xs[index] - xs[index - 1], ys[index] - ys[index - 1])
                let samples = 20_000
                var inside = 0
                for step in 0..<samples {
                    let t = (Double(step) + 0.5) / Double(samples)
                    let (x, y) = (xs[index - 1] + t * (xs[index] - xs[index - 1]), ys[index - 1] + t * (ys[index] - ys[index - 1]))
                    if x >= -80, x <= 4176, y >= -80, y <= 4176 { inside += 1 }
                }
                sampled += length * Double(inside) / Double(samples)
            }
            #expect(abs(clipped - sampled) <= 1.0 + 1e-3 * sampled)
        }
    }

    /// Every kept point is a source point rounded; every source point is within the tolerance (and rounding) of the result.
    @Test func simplificationStaysWithinATileUnitOfTheSource() {
        var random = SplitMix64(seed: 9)
        let path = TilePath(toleranceSquared: 1)
        for _ in 0..<100 {
            var (x, y) = (Double.random(in: 0...4096, using: &random), Double.random(in: 0...4096, using: &random))
            var xs: [Double] = [], ys: [Double] = []
            for _ in 0..<300 {
                xs.append(x)
                ys.append(y)
                x += Double.random(in: -3...3, using: &random)
                y += Double.random(in: -1...4, using: &random)
            }
            let line = path.line(xs, ys)
            #expect(line.count >= 2 && line.count < xs.count)
            for point in line {
                #expect(zip(xs, ys).contains { abs($0.rounded() - Double(point.x)) < 0.5 + 1e-9 && abs($1.rounded() - Double(point.y)) < 0.5 + 1e-9 })
            }
            for (sx, sy) in zip(xs, ys) {
                let nearest = (1..<line.count).map { index in
                    Self.distance(sx, sy, Double(line[index - 1].x), Double(line[index - 1].y), Double(line[index].x), Double(line[index].y))
                }.min() ?? .infinity
                #expect(nearest <= 1 + 0.5.squareRoot() + 1e-9)
            }
        }
    }

    static func distance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let (dx, dy) = (bx - ax, by - ay)
        let t = dx == 0 && dy == 0 ? 0 : min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        return hypot(px - (ax + t * dx), py - (ay + t * dy))
    }
}
