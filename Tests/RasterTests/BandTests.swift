import Foundation
import GeoCore
import Testing
@testable import Raster

/// A frame drawn band by band (each band a canvas with its `originY`) must be the frame drawn whole, to the
/// 16-bit value: large frames are rendered and encoded in bands and must give the bytes a whole render gives.
@Suite("Bands of a frame")
struct BandTests {
    private static let font = Result { try InterFont.bold.load() }

    /// Random fills (many crossing the edges and reaching far outside), strokes, text, shadows, a gradient and
    /// an image paint, all in frame coordinates.
    private static func drawScene(into canvas: Canvas, width: Int, height: Int) throws {
        var random = SplitMix64(seed: 2026)
        func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * Double(random.next() >> 11) / Double(1 << 53) }
        let masks = ShadowMasks()
        for index in 0..<60 {
            let count = 3 + Int(random.next() % 6)
            let points = (0..<count).map { _ in Point(uniform(-40, Double(width) + 40), uniform(-60, Double(height) + 60)) }
            let color = Color(r: UInt8(random.next() % 256), g: UInt8(random.next() % 256), b: UInt8(random.next() % 256), a: UInt8(128 + random.next() % 128))
            canvas.fill(.polygon(points), paint: .solid(color), rule: index % 2 == 0 ? .nonZero : .evenOdd)
        }
        canvas.fill(.polygon([Point(-1e7, 3.25), Point(1e7, 97.75), Point(20, 1e6)]), paint: .solid(Color(r: 20, g: 40, b: 200, a: 90)))
        for _ in 0..<8 {
            let circle = Path.circle(center: Point(uniform(0, Double(width)), uniform(0, Double(height))), radius: uniform(5, 60))
            canvas.drawShadow(of: circle, color: Color(r: 0, g: 0, b: 0, a: 120), sigma: uniform(1, 6), offset: Point(0, uniform(0, 4)), masks: masks)
            canvas.fill(circle, paint: .solid(.white))
        }
        let gradient = try RadialGradient(center: Point(Double(width) / 2, Double(height) / 2), radius: Double(height) / 2,
                                          stops: [(0, Color(r: 255, g: 0, b: 0, a: 200)), (1, Color(r: 0, g: 0, b: 255, a: 0))])
        canvas.fill(.ellipse(in: Rect(x: 10, y: 10, width: Double(width) - 20, height: Double(height) - 20)), paint: .radialGradient(gradient))
        let image = try Canvas(width: 16, height: 16, background: Color(r: 10, g: 200, b: 90, a: 255))
        canvas.drawImage(image.image(), in: Rect(x: 33.3, y: Double(height) / 2 - 40.7, width: 61.4, height: 90.2), clipToCircle: true)
        canvas.composite(image.image(), x: 100, y: height / 3 - 5)
        let font = try font.get()
        for line in 0..<12 {
            let layout = try font.layout("Jordan · 2m \(line)", size: uniform(9, 40))
            canvas.drawText(layout, at: Point(uniform(-20, Double(width)), uniform(0, Double(height) + 20)), color: Color(r: 30, g: 30, b: 30, a: 255))
        }
    }

    @Test(arguments: [37, 64, 200])
    func bandsGetExactlyTheRowsOfTheWholeFrame(bandHeight: Int) throws {
        let (width, height) = (300, 457)
        let whole = try Canvas(width: width, height: height, background: Color(r: 170, g: 211, b: 223, a: 255))
        try Self.drawScene(into: whole, width: width, height: height)
        for top in stride(from: 0, to: height, by: bandHeight) {
            let band = try Canvas(width: width, height: min(bandHeight, height - top), background: Color(r: 170, g: 211, b: 223, a: 255), originY: top)
            try Self.drawScene(into: band, width: width, height: height)
            let expected = whole.storage[(top * width * 4)..<((top + band.height) * width * 4)]
            #expect(band.storage[...] == expected, "band at row \(top) of height \(band.height)")
        }
    }
}

@Suite("Streamed PNG encoding")
struct StreamedPNGTests {
    /// Bands of uneven heights (some inside one of the PNG's own bands, some across several) handed over in
    /// any order and from several threads at once give the bytes of the whole canvas's PNG, opaque (RGB) and
    /// translucent (RGBA).
    @Test(arguments: [true, false])
    func bandsEncodeToTheBytesOfTheWholeFrame(opaque: Bool) throws {
        let (width, height) = (700, 1003)
        let background = opaque ? Color(r: 170, g: 211, b: 223, a: 255) : .clear
        @Sendable func draw(_ canvas: Canvas) {
            for index in 0..<40 {
                let y = Double(index) * 25.3
                canvas.fill(.circle(center: Point(Double(index * 17 % width), y), radius: 30 + Double(index % 7) * 9),
                            paint: .solid(Color(r: UInt8(index * 6), g: 90, b: 200, a: opaque ? 255 : 160)))
            }
        }
        let whole = try Canvas(width: width, height: height, background: background)
        draw(whole)
        let expected = try PNGCodec.encode(whole)
        let splits: [[Range<Int>]] = [
            [0..<1, 1..<130, 130..<640, 640..<641, 641..<1003],
            PNGCodec.drawingBands(width: width, height: height, near: 120),
        ]
        for (number, split) in splits.enumerated() {
            for order in [Array(split.indices), Array(split.indices.reversed()), [2, 0, 4, 1, 3].filter { $0 < split.count } + Array(5..<max(5, split.count))] {
                let encoder = try PNGStreamEncoder(width: width, height: height, opaque: opaque)
                let failures = Failures()
                DispatchQueue.concurrentPerform(iterations: order.count) { slot in
                    let rows = split[order[slot]]
                    do {
                        let band = try Canvas(width: width, height: rows.count, background: background, originY: rows.lowerBound)
                        draw(band)
                        try encoder.append(band)
                    } catch {
                        failures.record(error)
                    }
                }
                #expect(failures.count == 0)
                #expect(try encoder.finish() == expected, "split \(number) in the order \(order)")
            }
        }
    }

    @Test func drawingBandsAreWholeBandsOfTheEncodingInOrder() {
        for (width, height, near) in [(1179, 2556, 320), (1179, 2556, 600), (7998, 7998, 600), (700, 1003, 120), (256, 256, 600), (512, 700, 100)] {
            let bands = PNGCodec.drawingBands(width: width, height: height, near: near)
            #expect(bands.first?.lowerBound == 0 && bands.last?.upperBound == height)
            #expect(zip(bands, bands.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound && !$0.isEmpty })
            #expect(bands.count == max(1, min(height / near, PNGCodec.bandCount(height: height, options: .snapmap))) || width * height < PNGCodec.minimumBandedPixels)
            guard width * height >= PNGCodec.minimumBandedPixels else { continue }
            let count = PNGCodec.bandCount(height: height, options: .snapmap)
            let starts = Set((0..<count).map { PNGBands.rows(of: $0, count: count, height: height).0 })
            #expect(bands.allSatisfy { starts.contains($0.lowerBound) }, "\(width)×\(height) near \(near)")
        }
    }

    @Test func overlappingMissingOrTranslucentBandsAreRefused() throws {
        let encoder = try PNGStreamEncoder(width: 600, height: 600, opaque: false)
        try encoder.append(try Canvas(width: 600, height: 10, originY: 5))
        #expect(throws: RasterError.self) { try encoder.append(try Canvas(width: 600, height: 10, originY: 10)) }
        #expect(throws: RasterError.self) { try encoder.append(try Canvas(width: 599, height: 10, originY: 20)) }
        #expect(throws: RasterError.self) { try encoder.append(try Canvas(width: 600, height: 10, originY: 595)) }
        #expect(throws: RasterError.self) { try encoder.finish() }
        let opaque = try PNGStreamEncoder(width: 600, height: 600, opaque: true)
        #expect(throws: RasterError.self) { try opaque.append(try Canvas(width: 600, height: 600)) }
    }

    /// Errors thrown on the threads that hand bands over.
    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [any Error] = []
        var count: Int { lock.withLock { errors.count } }
        func record(_ error: any Error) { lock.withLock { errors.append(error) } }
    }
}
