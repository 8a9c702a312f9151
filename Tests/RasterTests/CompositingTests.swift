import Foundation
import Testing
@testable import Raster

@Suite("Compositing, shadows, gradients and images")
struct CompositingTests {
    @Test func manyTranslucentLayersDoNotDrift() throws {
        let canvas = try Canvas(width: 4, height: 4, background: .black)
        let layer = Color(r: 255, g: 255, b: 255, a: 1)
        for _ in 0..<255 { canvas.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 4)), paint: .solid(layer)) }
        let analytic = 255 * (1 - pow(254.0 / 255.0, 255))
        let value = Double(canvas.pixel(x: 1, y: 1).r)
        #expect(abs(value - analytic) <= 1, "\(value) vs \(analytic)")
        #expect(canvas.pixel(x: 1, y: 1).a == 255)
    }

    @Test func halfTransparentOverOpaqueIsTheAverage() throws {
        let canvas = try Canvas(width: 2, height: 2, background: Color(r: 0, g: 0, b: 200))
        canvas.fill(.rect(Rect(x: 0, y: 0, width: 2, height: 2)), paint: .solid(Color(r: 200, g: 100, b: 0, a: 128)))
        let pixel = canvas.pixel(x: 0, y: 0)
        let f = 128.0 / 255
        #expect(abs(Double(pixel.r) - 200 * f) <= 0.5 && abs(Double(pixel.g) - 100 * f) <= 0.5 && abs(Double(pixel.b) - 200 * (1 - f)) <= 0.5)
    }

    @Test func shadowIsSoftAndConservesCoverage() throws {
        let canvas = try Canvas(width: 120, height: 120)
        canvas.drawShadow(of: .rect(Rect(x: 40, y: 40, width: 40, height: 40)), color: .black, sigma: 4, offset: Point(0, 3))
        #expect(abs(canvas.totalCoverage - 1600) / 1600 < 0.01, "blur moves coverage, it does not make any")
        #expect(canvas.pixel(x: 60, y: 63).a == 255)
        let edge = canvas.alpha(x: 40, y: 63)
        #expect(edge > 0.4 && edge < 0.6, "the edge is half covered after blurring")
        #expect(canvas.alpha(x: 33, y: 63) > 0 && canvas.alpha(x: 33, y: 63) < 0.1)
    }

    @Test func radialGradientRunsFromCentreToRadius() throws {
        let canvas = try Canvas(width: 101, height: 101)
        let gradient = try RadialGradient(center: Point(50.5, 50.5), radius: 50, stops: [(0, .white), (1, Color(r: 255, g: 255, b: 255, a: 0))])
        canvas.fill(.rect(Rect(x: 0, y: 0, width: 101, height: 101)), paint: .radialGradient(gradient))
        #expect(canvas.pixel(x: 50, y: 50).a == 255)
        #expect(abs(Double(canvas.pixel(x: 75, y: 50).a) - 127.5) <= 3)
        #expect(canvas.pixel(x: 0, y: 0).a == 0)
    }

    @Test func avatarImageIsScaledAndClippedToACircle() throws {
        let pixels = (0..<(8 * 8)).flatMap { index -> [UInt8] in index % 8 < 4 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        let image = try Image(width: 8, height: 8, straightRGBA: pixels)
        let canvas = try Canvas(width: 64, height: 64)
        canvas.drawImage(image, in: Rect(x: 8, y: 8, width: 48, height: 48), clipToCircle: true)
        #expect(canvas.pixel(x: 14, y: 32) == Color(r: 255, g: 0, b: 0))
        #expect(canvas.pixel(x: 50, y: 32) == Color(r: 0, g: 0, b: 255))
        #expect(canvas.pixel(x: 9, y: 9).a == 0, "the corner is outside the circle")
        #expect(abs(canvas.totalCoverage - Double.pi * 24 * 24) / (Double.pi * 24 * 24) < 0.002)
        let middle = canvas.pixel(x: 32, y: 32)
        #expect(middle.r > 40 && middle.b > 40, "bilinear filtering blends across the seam")
    }

    @Test func sizeLimitsAreClearErrors() {
        #expect(throws: RasterError.canvasTooLarge(width: 9000, height: 10, maxSide: Canvas.maxSide, maxPixels: Canvas.maxPixels)) {
            try Canvas(width: 9000, height: 10)
        }
        #expect(throws: RasterError.self) { try Canvas(width: 8192, height: 8192) }
        #expect(throws: RasterError.self) { try Canvas(width: 0, height: 10) }
        #expect(throws: RasterError.self) { try Color(hex: "#12345") }
    }
}
