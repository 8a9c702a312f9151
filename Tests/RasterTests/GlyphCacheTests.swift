import Testing
@testable import Raster

/// The glyph caches are keyed by pixel size, which a request chooses (points × its `scale`, a free real): 400
/// requests at 400 scales grew a server from 49 MB to 1.19 GB. The caches are bounded instead.
@Suite("Glyph caches stay bounded whatever sizes are asked")
struct GlyphCacheTests {
    @Test func fourHundredScalesKeepTheCachesWithinTheirBounds() throws {
        let font = try InterFont.bold.load()
        var largest = (bitmaps: 0, bytes: 0, outlines: 0)
        for step in 0..<400 {
            // The frame's label size (13 pt) at scales 1 … 4, as `?scale=` asks them.
            let size = 13 * (1 + 3 * Double(step) / 399)
            let layout = try font.layout("Jordan · 2m ago, Williamsburg; Maya & Noah at McCarren Park (Bedford Av) 1234567890", size: size)
            for glyph in layout.glyphs {
                for phase in 0..<Font.subpixelPhases { _ = font.bitmap(glyph: glyph.id, size: size, phase: phase) }
            }
            for glyph in layout.glyphs.prefix(4) { _ = font.glyphPath(glyph.id, size: size) }
            let use = font.cacheUse
            largest = (max(largest.bitmaps, use.bitmaps), max(largest.bytes, use.bytes), max(largest.outlines, use.outlines))
        }
        #expect(largest.bytes <= Font.glyphCacheBytes, "bitmap bytes \(largest.bytes)")
        #expect(largest.outlines <= Font.outlineCacheCapacity, "outlines \(largest.outlines)")
        #expect(largest.bytes > Font.glyphCacheBytes / 2, "the bound was reached (else this test checks nothing): \(largest)")
    }

    @Test func aCacheThatStartedAgainDrawsTheSameBytes() throws {
        let font = try InterFont.bold.load()
        func draw() throws -> [UInt8] {
            let canvas = try Canvas(width: 300, height: 60)
            canvas.drawText(try font.layout("Maya · 5m", size: 39), at: Point(8.5, 45), color: .black)
            return try PNGCodec.encode(canvas)
        }
        let first = try draw()
        for step in 0..<300 { _ = try font.layout("Maya · 5m", size: 10 + Double(step) / 7).glyphs.map { font.bitmap(glyph: $0.id, size: 10 + Double(step) / 7, phase: 0) } }
        #expect(try draw() == first)
    }
}
