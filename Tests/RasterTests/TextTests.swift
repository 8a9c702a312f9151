import Testing
@testable import Raster

@Suite("Text: FreeType glyphs shaped by HarfBuzz")
struct TextTests {
    private static let bold = Result { try InterFont.bold.load() }

    @Test func labelInkStaysInTheMeasuredBoxAndAdvanceMatches() throws {
        let font = try Self.bold.get()
        let layout = try font.layout("Jordan · 2m", size: 13 * 3)
        let canvas = try Canvas(width: 400, height: 80)
        let origin = Point(20.4, 55.6)
        let used = canvas.drawText(layout, at: origin, color: .black)
        #expect(used == layout.advance)
        let box = try #require(layout.inkBounds(at: origin))
        var inked = 0
        for y in 0..<80 {
            for x in 0..<400 where canvas.pixel(x: x, y: y).a > 0 {
                inked += 1
                #expect(Double(x) >= box.minX.rounded(.down) && Double(x) < box.maxX.rounded(.up), "x \(x) outside \(box)")
                #expect(Double(y) >= box.minY.rounded(.down) && Double(y) < box.maxY.rounded(.up), "y \(y) outside \(box)")
            }
        }
        #expect(inked > 300)
        #expect(box.width > 150 && box.width < layout.advance + 1)
        #expect(layout.glyphs.count == 11, "one glyph per character, the middle dot included")
        #expect(!layout.glyphs.contains { $0.id == 0 }, "no missing-glyph boxes")
    }

    @Test func kerningAndScaling() throws {
        let font = try Self.bold.get()
        let pair = try font.layout("AV", size: 40).advance
        let apart = try font.layout("A", size: 40).advance + font.layout("V", size: 40).advance
        #expect(pair < apart - 0.5, "HarfBuzz applies the AV kern")
        let small = try font.layout("Maya · 5m", size: 13).advance
        let large = try font.layout("Maya · 5m", size: 26).advance
        #expect(abs(large - 2 * small) < 0.6)
    }

    @Test func sameTextDrawsTheSameBytes() throws {
        func draw() throws -> [UInt8] {
            let canvas = try Canvas(width: 200, height: 40, background: .white)
            canvas.drawText(try Self.bold.get().layout("Theo · 14m", size: 20), at: Point(5, 28), color: .black)
            return try PNGCodec.encode(canvas)
        }
        #expect(try draw() == draw())
    }

    @Test func missingFontNamesTheFile() {
        #expect(throws: RasterError.font(file: "/nonexistent/Inter-Bold.otf",
                                         reason: "file not found or not readable (Debian's fonts-inter installs Inter; run make setup)")) {
            try Font(file: "/nonexistent/Inter-Bold.otf")
        }
    }
}
