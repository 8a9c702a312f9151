import Foundation
import Testing
@testable import Raster

@Suite("Strokes")
struct StrokeTests {
    private func strokedCoverage(_ path: Path, _ style: StrokeStyle, size: (Int, Int) = (200, 120)) throws -> Canvas {
        let canvas = try Canvas(width: size.0, height: size.1)
        canvas.stroke(path, style: style, paint: .solid(.white))
        return canvas
    }

    private func line(_ points: [Point]) -> Path {
        var path = Path()
        path.addPolyline(points, closed: false)
        return path
    }

    @Test(arguments: [1.5, 4.0, 9.0])
    func buttLineCoversLengthTimesWidth(width: Double) throws {
        let path = line([Point(20.3, 30.7), Point(170.9, 95.2)])
        let canvas = try strokedCoverage(path, StrokeStyle(width: width, join: .miter, cap: .butt))
        let length = (Point(170.9, 95.2) - Point(20.3, 30.7)).length
        #expect(abs(canvas.totalCoverage - length * width) / (length * width) < 0.01)
    }

    @Test(arguments: [3.0, 8.0])
    func roundCapsAddHalfACircleEach(width: Double) throws {
        let points = [Point(30.2, 40.1), Point(160.6, 80.4)]
        let canvas = try strokedCoverage(line(points), StrokeStyle(width: width, join: .round, cap: .round))
        let radius = width / 2
        let expected = (points[1] - points[0]).length * width + 2 * (Double.pi * radius * radius / 2)
        #expect(abs(canvas.totalCoverage - expected) / expected < 0.01)
        let square = try strokedCoverage(line(points), StrokeStyle(width: width, join: .round, cap: .square))
        let squareExpected = ((points[1] - points[0]).length + width) * width
        #expect(abs(square.totalCoverage - squareExpected) / squareExpected < 0.01)
    }

    @Test func sharpTurnsAndClosedPathsHaveNoGapsOrDoubleCover() throws {
        let zigzag = line([Point(20, 100), Point(60, 20), Point(100, 100), Point(140, 20), Point(180, 100)])
        for join in [StrokeStyle.Join.round, .bevel, .miter] {
            let canvas = try strokedCoverage(zigzag, StrokeStyle(width: 10, join: join, cap: .butt, miterLimit: 10))
            #expect(canvas.pixel(x: 60, y: 22).a == 255, "\(join): the apex is covered")
            #expect((0..<200).allSatisfy { x in (0..<120).allSatisfy { canvas.alpha(x: x, y: $0) <= 1 } })
        }
        let miter = try strokedCoverage(zigzag, StrokeStyle(width: 10, join: .miter, cap: .butt, miterLimit: 10))
        let bevel = try strokedCoverage(zigzag, StrokeStyle(width: 10, join: .bevel, cap: .butt))
        #expect(miter.totalCoverage > bevel.totalCoverage, "miters reach further than bevels")
        #expect(miter.pixel(x: 60, y: 12).a > 0 && bevel.pixel(x: 60, y: 12).a == 0)
        let square = Path.polygon([Point(40, 30), Point(160, 30), Point(160, 90), Point(40, 90)])
        let closed = try strokedCoverage(square, StrokeStyle(width: 6, join: .miter, cap: .butt))
        let perimeter = 2.0 * (120 + 60)
        #expect(abs(closed.totalCoverage - perimeter * 6) / (perimeter * 6) < 0.01, "a closed square's miters meet exactly")
        #expect(closed.pixel(x: 40, y: 30).a == 255 && closed.pixel(x: 100, y: 60).a == 0)
    }

    @Test func hairlinesFadeInsteadOfBreakingUp() throws {
        let path = line([Point(10, 10.3), Point(190, 47.9)])
        let canvas = try strokedCoverage(path, StrokeStyle(width: 0.4, join: .round, cap: .butt))
        let length = (Point(190, 47.9) - Point(10, 10.3)).length
        #expect(abs(canvas.totalCoverage - length * 0.4) / (length * 0.4) < 0.02)
        for x in 12..<188 {
            let column = (0..<120).map { canvas.alpha(x: x, y: $0) }.reduce(0, +)
            #expect(column > 0.3, "column \(x) is not broken")
        }
    }
}
