import Foundation
import GeoCore
import Testing
@testable import Raster

@Suite("Fill by exact area coverage")
struct FillTests {
    private let white = Paint.solid(.white)

    @Test func integerRectangleIsExactlyFullInsideAndEmptyOutside() throws {
        let canvas = try Canvas(width: 40, height: 30)
        canvas.fill(.rect(Rect(x: 5, y: 7, width: 20, height: 10)), paint: white)
        for y in 0..<30 {
            for x in 0..<40 {
                let inside = (5..<25).contains(x) && (7..<17).contains(y)
                #expect(canvas.pixel(x: x, y: y).a == (inside ? 255 : 0))
            }
        }
    }

    @Test func verticalEdgeAtHalfPixelCoversHalf() throws {
        let canvas = try Canvas(width: 40, height: 20)
        canvas.fill(.rect(Rect(x: 10.5, y: 0, width: 20, height: 20)), paint: white)
        for y in 0..<20 {
            #expect(abs(canvas.alpha(x: 10, y: y) - 0.5) <= 1.0 / 255)
            #expect(canvas.pixel(x: 9, y: y).a == 0 && canvas.pixel(x: 11, y: y).a == 255)
        }
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func randomPolygonsCoverTheirExactArea(rule: FillRule) throws {
        var generator = SplitMix64(seed: rule == .nonZero ? 1 : 2)
        for trial in 0..<40 {
            let count = trial < 10 ? 3 + trial % 3 : 5 + trial % 9
            let polygon = (0..<count).map { _ in
                Point(Double.random(in: 8...192, using: &generator), Double.random(in: 8...152, using: &generator))
            }
            let canvas = try Canvas(width: 200, height: 160)
            canvas.fill(.polygon(polygon), paint: white, rule: rule)
            let exact = ExactArea.of(polygon, rule: rule)
            guard exact > 50 else { continue }
            #expect(abs(canvas.totalCoverage - exact) / exact <= 0.005, "trial \(trial): \(canvas.totalCoverage) vs \(exact)")
        }
    }

    @Test func evenOddLeavesTheStarsCentreEmptyAndNonZeroFillsIt() throws {
        let star = (0..<5).map { index -> Point in
            let angle = -Double.pi / 2 + Double(index) * 4 * Double.pi / 5
            return Point(50 + 40 * cos(angle), 50 + 40 * sin(angle))
        }
        let nonZero = try Canvas(width: 100, height: 100)
        nonZero.fill(.polygon(star), paint: white, rule: .nonZero)
        let evenOdd = try Canvas(width: 100, height: 100)
        evenOdd.fill(.polygon(star), paint: white, rule: .evenOdd)
        #expect(nonZero.pixel(x: 50, y: 52).a == 255)
        #expect(evenOdd.pixel(x: 50, y: 52).a == 0)
    }

    @Test func farAwayAndHugeGeometryIsSound() throws {
        let canvas = try Canvas(width: 64, height: 64)
        canvas.fill(.polygon([Point(-1e9, -1e9), Point(3e9, -1e9), Point(-1e9, 3e9)]), paint: white)
        #expect((0..<64).allSatisfy { x in (0..<64).allSatisfy { y in canvas.pixel(x: x, y: y).a == 255 } })
        let sliver = try Canvas(width: 64, height: 64)
        sliver.fill(.rect(Rect(x: -5e8, y: 20, width: 1e9, height: 10)), paint: white)
        sliver.fill(.polygon([Point(1e7, 1e7), Point(2e7, 1e7), Point(2e7, 2e7)]), paint: white)
        for x in 0..<64 {
            #expect(sliver.pixel(x: x, y: 25).a == 255 && sliver.pixel(x: x, y: 19).a == 0 && sliver.pixel(x: x, y: 30).a == 0)
        }
        #expect(abs(sliver.totalCoverage - 640) < 1e-3)
    }

    @Test func edgesCrossingTheCanvasSidesMatchTheClippedArea() throws {
        var generator = SplitMix64(seed: 3)
        for trial in 0..<60 {
            let polygon = (0..<7).map { _ in
                Point(Double.random(in: -150...250, using: &generator), Double.random(in: -40...140, using: &generator))
            }
            let canvas = try Canvas(width: 100, height: 100)
            canvas.fill(.polygon(polygon), paint: .solid(.white), rule: .evenOdd)
            let reference = try Canvas(width: 400, height: 180)
            reference.fill(.polygon(polygon.map { Point($0.x + 150, $0.y + 40) }), paint: .solid(.white), rule: .evenOdd)
            var inside = 0.0
            for y in 40..<140 {
                for x in 150..<250 { inside += reference.alpha(x: x, y: y) }
            }
            #expect(abs(canvas.totalCoverage - inside) < 0.05 * max(1, inside / 100), "trial \(trial)")
        }
    }

    @Test func curvesAreFlattenedWithinTolerance() throws {
        let canvas = try Canvas(width: 220, height: 220)
        canvas.fill(.circle(center: Point(110, 110), radius: 100), paint: white)
        #expect(abs(canvas.totalCoverage - Double.pi * 100 * 100) / (Double.pi * 100 * 100) < 0.001)
        let (p0, p1, p2, p3) = (Point(0, 0), Point(300, -900), Point(700, 900), Point(1000, 0))
        var path = Path()
        path.move(to: p0)
        path.cubic(control1: p1, control2: p2, to: p3)
        let points = PathFlattener.contours(of: path, tolerance: 0.1)[0].points
        func curve(_ t: Double) -> Point {
            let u = 1 - t
            let (a, b): (Double, Double) = (u * u * u, 3 * u * u * t)
            let (c, d): (Double, Double) = (3 * u * t * t, t * t * t)
            let start: Point = p0 * a + p1 * b
            return start + p2 * c + p3 * d
        }
        let segments = Double(points.count - 1)
        var worst = 0.0
        for index in 0..<(points.count - 1) {
            let chordMiddle: Point = (points[index] + points[index + 1]) * 0.5
            worst = max(worst, (chordMiddle - curve((Double(index) + 0.5) / segments)).length)
        }
        #expect(worst <= 0.1 && points.count < 400, "chords stay within 0.1 px of the curve with few segments")
        let contours = PathFlattener.contours(of: .circle(center: Point(0, 0), radius: 2), tolerance: 0.1)
        #expect(contours[0].points.count < 40, "small curves get few segments")
    }
}
