import Foundation
import GeoCore
import Testing
@testable import Raster

/// Splicing a viewer's changes into a kept banded encoding: for random drawing over map-like images (flat areas,
/// runs, noisy patches), at the image's edges and across band boundaries, with each fixed filter, the spliced PNG
/// is byte for byte the PNG encoded from scratch, and what a copy was drawn on covers every pixel that changed.
@Suite struct SpliceTests {
    private static let bold = Result { try InterFont.bold.load() }

    /// A map-like opaque image: flat blocks of a few colours, stripes that make long runs, and noisy patches.
    static func mapLike(width: Int, height: Int, seed: UInt64) throws -> Canvas {
        let canvas = try FastDeflateTests.canvas(width: width, height: height, opaque: true, seed: seed) { x, y, random in
            if (x / 37 + y / 53) % 5 == 0 { return (UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()), 200) }
            if (x / 90 + y / 70) % 3 == 0 { return (242, 239, 230) }
            return y % 9 < 2 ? (255, 255, 255) : (169, 213, 239)
        }
        canvas.fill(.ellipse(in: Rect(x: 40, y: 30, width: Double(width) / 2, height: Double(height) / 3)), paint: .solid(Color(r: 200, g: 230, b: 190)))
        return canvas
    }

    /// Random pins, text and shadows over a copy of `base`, some at its edges and on band boundaries.
    static func drawOver(_ base: Canvas, seed: UInt64) throws -> Canvas {
        var random = SplitMix64(seed: seed)
        let canvas = try base.copy()
        let (width, height) = (Double(base.width), Double(base.height))
        func unit() -> Double { Double(random.next() % 10_000) / 10_000 }
        for _ in 0..<(3 + Int(random.next() % 6)) {
            let rect = Rect(x: unit() * width - 20, y: unit() * height - 20, width: 10 + unit() * 120, height: 10 + unit() * 90)
            let color = Color(r: UInt8(truncatingIfNeeded: random.next()), g: UInt8(truncatingIfNeeded: random.next()),
                              b: UInt8(truncatingIfNeeded: random.next()), a: UInt8(80 + random.next() % 176))
            switch random.next() % 3 {
            case 0: canvas.fill(.ellipse(in: rect), paint: .solid(color))
            case 1: canvas.drawShadow(of: .rect(rect), color: color, sigma: 4)
            default: canvas.drawText(try Self.bold.get().layout("Jordan · 2m", size: 14 + unit() * 20), at: Point(rect.x, rect.y + 30), color: color)
            }
        }
        canvas.fill(.rect(Rect(x: width - 1, y: 63, width: 1, height: 2)), paint: .solid(.black))
        canvas.fill(.rect(Rect(x: 0, y: height - 1, width: 3, height: 1)), paint: .solid(Color(r: 9, g: 8, b: 7)))
        canvas.fill(.rect(Rect(x: 5, y: 0, width: 200, height: 1)), paint: .solid(Color(r: 169, g: 213, b: 239)))
        return canvas
    }

    @Test(arguments: [(PNGCodec.Filter.up, UInt64(1)), (.sub, 2), (.none, 3), (.up, 4), (.up, 5)] as [(PNGCodec.Filter, UInt64)])
    func splicedBandsAreTheBytesOfAWholeEncoding(filter: PNGCodec.Filter, seed: UInt64) throws {
        let options = PNGCodec.Options(level: 1, filter: filter, strategy: .fast, bands: 8)
        let base = try Self.mapLike(width: 611 + Int(seed) * 7, height: 700, seed: seed)
        let bands = try PNGBands(base, options: options)
        for round in 0..<4 {
            let changed = try Self.drawOver(base, seed: seed * 100 + UInt64(round))
            #expect(changed.isCopy(of: base))
            let spliced = try bands.png(of: changed, over: base)
            #expect(spliced == (try PNGCodec.encode(changed, options: options)))
            #expect(try PNGCodec.decode(spliced).straightRGBA == changed.image().straightRGBA)
        }
    }

    @Test func everyChangedPixelIsInsideTheTouchedColumns() throws {
        let base = try Self.mapLike(width: 400, height: 300, seed: 9)
        for seed in UInt64(0)..<6 {
            let changed = try Self.drawOver(base, seed: seed)
            for row in 0..<base.height {
                let columns = changed.touched.columns(of: row)
                for column in 0..<base.width where (0..<4).contains(where: {
                    changed.storage[(row * base.width + column) * 4 + $0] != base.storage[(row * base.width + column) * 4 + $0]
                }) {
                    #expect(columns.contains { $0.contains(column) }, "row \(row) column \(column) changed outside \(columns)")
                }
            }
        }
    }

    @Test func aResetCopyHoldsItsSourceAgainAndSplicesAfterNewDrawing() throws {
        let options = PNGCodec.Options(level: 1, filter: .up, strategy: .fast, bands: 8)
        let base = try Self.mapLike(width: 640, height: 520, seed: 8)
        let other = try Self.mapLike(width: 640, height: 520, seed: 9)
        let bands = try PNGBands(base, options: options)
        let canvas = try Self.drawOver(base, seed: 1)
        // Only what was drawn is copied back; from another canvas of the size, every pixel.
        for source in [base, other, base] {
            try canvas.reset(to: source)
            #expect(canvas.storage == source.storage && canvas.isCopy(of: source))
            let drawn = try Self.drawOver(source, seed: 2)
            try canvas.reset(to: source)
            canvas.fill(.ellipse(in: Rect(x: 10, y: 60, width: 600, height: 30)), paint: .solid(Color(r: 1, g: 2, b: 3, a: 128)))
            #expect(drawn.storage != canvas.storage)
        }
        #expect(try bands.png(of: canvas, over: base) == PNGCodec.encode(canvas, options: options))
        #expect(throws: RasterError.self) { try canvas.reset(to: Canvas(width: 10, height: 10)) }
    }

    @Test func aCopyOfAnOlderCanvasIsEncodedWithoutSplicing() throws {
        let options = PNGCodec.Options(level: 1, filter: .up, strategy: .fast, bands: 8)
        let base = try Self.mapLike(width: 600, height: 600, seed: 3)
        let changed = try Self.drawOver(base, seed: 4)
        // The base drawn on after the copy was made: the copy no longer differs from it only where it was drawn on.
        base.fill(.rect(Rect(x: 0, y: 200, width: 600, height: 40)), paint: .solid(.black))
        let bands = try PNGBands(base, options: options)
        #expect(!changed.isCopy(of: base))
        #expect(try bands.png(of: changed, over: base) == PNGCodec.encode(changed, options: options))
    }
}
