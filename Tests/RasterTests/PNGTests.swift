import Testing
@testable import Raster

@Suite("PNG through libpng")
struct PNGTests {
    private func translucentScene() throws -> Canvas {
        let canvas = try Canvas(width: 64, height: 48)
        canvas.fill(.circle(center: Point(30, 24), radius: 18), paint: .solid(Color(r: 255, g: 200, b: 0, a: 180)))
        canvas.stroke(.polygon([Point(5, 5), Point(60, 10), Point(40, 44)]), style: StrokeStyle(width: 3), paint: .solid(Color(r: 20, g: 90, b: 250, a: 90)))
        return canvas
    }

    @Test(arguments: [PNGCodec.Options.snapmap, .libpngDefault, PNGCodec.Options(level: 0, filter: .none), PNGCodec.Options(level: 6, filter: .sub, bands: 3)])
    func encodeThenDecodeIsExact(options: PNGCodec.Options) throws {
        let translucent = try translucentScene()
        let decoded = try PNGCodec.decode(PNGCodec.encode(translucent, options: options))
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(decoded.straightRGBA == translucent.straightRGBA8())

        let opaque = try Canvas(width: 33, height: 17, background: Color(r: 242, g: 239, b: 230))
        opaque.fill(.circle(center: Point(16, 8), radius: 6), paint: .solid(Color(r: 169, g: 213, b: 239)))
        let bytes = try PNGCodec.encode(opaque, options: options)
        #expect(bytes[25] == 2, "an opaque canvas is written as RGB (colour type 2)")
        #expect(try PNGCodec.decode(bytes).straightRGBA == opaque.straightRGBA8())
    }

    @Test func bytesAreDeterministicWithNoTimeChunk() throws {
        let first = try PNGCodec.encode(translucentScene())
        let second = try PNGCodec.encode(translucentScene())
        #expect(first == second)
        #expect(!String(decoding: first, as: UTF8.self).contains("tIME"))
    }

    @Test func truncatedOrCorruptDataIsAnError() throws {
        let bytes = try PNGCodec.encode(translucentScene())
        for cut in [7, 30, bytes.count / 2, bytes.count - 13] {
            #expect(throws: RasterError.self) { try PNGCodec.decode(Array(bytes.prefix(cut))) }
        }
        var corrupt = bytes
        corrupt[40] ^= 0xFF
        #expect(throws: RasterError.self) { try PNGCodec.decode(corrupt) }
        #expect(throws: RasterError.png("not a PNG file (bad signature)")) { try PNGCodec.decode(Array("hello world".utf8)) }
    }

    @Test func decodesEveryColourType() throws {
        let gray = HandmadePNG.make(width: 2, height: 1, bitDepth: 8, colorType: 0, rows: [[0, 200]])
        #expect(try PNGCodec.decode(gray).straightRGBA == [0, 0, 0, 255, 200, 200, 200, 255])
        let grayAlpha = HandmadePNG.make(width: 1, height: 1, bitDepth: 8, colorType: 4, rows: [[90, 128]])
        #expect(try PNGCodec.decode(grayAlpha).straightRGBA == [90, 90, 90, 128])
        let palette = HandmadePNG.make(width: 2, height: 1, bitDepth: 8, colorType: 3, rows: [[1, 0]],
                                       extraChunks: [("PLTE", [255, 0, 0, 0, 255, 0]), ("tRNS", [255, 64])])
        #expect(try PNGCodec.decode(palette).straightRGBA == [0, 255, 0, 64, 255, 0, 0, 255])
        let deep = HandmadePNG.make(width: 1, height: 1, bitDepth: 16, colorType: 2, rows: [[0xFF, 0xFF, 0x80, 0x00, 0x00, 0x10]])
        #expect(try PNGCodec.decode(deep).straightRGBA == [255, 128, 0, 255])
        let image = try PNGCodec.decode(grayAlpha)
        #expect(image.premultiplied[3] == 128 * 257, "decoded images are premultiplied for drawing")
    }
}

@Suite("PNG bands reused")
struct PNGBandTests {
    @Test(arguments: [true, false])
    func changingAFewRowsRecompressesToTheSameBytes(opaque: Bool) throws {
        let base = try Canvas(width: 700, height: 900, background: opaque ? Color(r: 242, g: 239, b: 230) : .clear)
        base.fill(.ellipse(in: Rect(x: 100, y: 100, width: 400, height: 500)), paint: .solid(Color(r: 169, g: 213, b: 239, a: opaque ? 255 : 180)))
        let bands = try PNGBands(base)
        #expect(try bands.png() == PNGCodec.encode(base))
        let changed = try base.copy()
        changed.fill(.ellipse(in: Rect(x: 300, y: 410.5, width: 48, height: 48)), paint: .solid(Color(r: 255, g: 252, b: 0)))
        changed.fill(.rect(Rect(x: 0, y: 0, width: 700, height: 1)), paint: .solid(.black))
        let reused = try bands.png(of: changed, over: base)
        #expect(reused == (try PNGCodec.encode(changed)))
        #expect(try PNGCodec.decode(reused).straightRGBA == changed.image().straightRGBA)
    }
}
