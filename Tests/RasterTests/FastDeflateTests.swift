import Foundation
import GeoCore
import Testing
@testable import Raster

/// snapmap's own deflate encoder, read back by libpng (zlib's inflate, which we did not write): flat maps, noise
/// that makes every byte a literal, skewed byte frequencies whose Huffman codes must be cut to 15 bits, runs
/// longer than a match, many bands, RGB and RGBA; the same image always gives the same bytes.
@Suite struct FastDeflateTests {
    static let options = PNGCodec.Options(level: 1, filter: .up, strategy: .fast, bands: 8)

    /// A canvas with the given straight colours, written straight into its 16-bit premultiplied storage.
    static func canvas(width: Int, height: Int, opaque: Bool, seed: UInt64, _ pixel: (Int, Int, inout SplitMix64) -> (UInt8, UInt8, UInt8)) throws -> Canvas {
        var random = SplitMix64(seed: seed)
        let canvas = try Canvas(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y, &random)
                let alpha: UInt8 = opaque ? 255 : UInt8(truncatingIfNeeded: random.next() % 256)
                let color = Color(r: r, g: g, b: b, a: alpha).premultiplied16
                let index = (y * width + x) * 4
                canvas.storage[index] = UInt16(color.r)
                canvas.storage[index + 1] = UInt16(color.g)
                canvas.storage[index + 2] = UInt16(color.b)
                canvas.storage[index + 3] = UInt16(color.a)
            }
        }
        return canvas
    }

    @Test(arguments: [
        ("flat", 700, 600, true), ("noise", 517, 509, true), ("skewed", 640, 520, true), ("stripes", 1300, 300, false), ("tall", 64, 8000, true),
    ])
    func imagesComeBackExactlyThroughLibpng(kind: String, width: Int, height: Int, opaque: Bool) throws {
        let image = try Self.canvas(width: width, height: height, opaque: opaque, seed: UInt64(width * height)) { x, y, random in
            switch kind {
            case "flat": return x < 300 || y > 400 ? (169, 213, 239) : (242, 239, 230)
            case "noise": return (UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()))
            case "skewed":
                // Byte values with frequencies falling by half each step: Huffman would want codes longer than 15 bits.
                let value = UInt8(min(63, (random.next() | 1 << 62).trailingZeroBitCount))
                return (value, value &* 3, value &* 7)
            default: return (x / 7 % 2 == 0 ? 255 : 0, UInt8(y % 256), 40)
            }
        }
        let png = try PNGCodec.encode(image, options: Self.options)
        #expect(try PNGCodec.encode(image, options: Self.options) == png, "the same image gives the same bytes")
        let decoded = try PNGCodec.decode(png)
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.straightRGBA == image.image().straightRGBA, "\(kind)")
    }
}
