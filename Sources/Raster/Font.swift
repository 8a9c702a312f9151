import CFreeType
import Foundation
import Planar

/// A font face: HarfBuzz shapes text (kerning, ligatures, "·"), FreeType renders grayscale glyph bitmaps.
/// FreeType faces are not thread-safe, so every call into them holds the font's lock; the glyph cache lives
/// under the same lock. Shaped `TextLayout`s are values and can be shared freely.
public final class Font: @unchecked Sendable {
    /// Subpixel positions per pixel at which glyphs are rendered.
    static let subpixelPhases = 4
    /// FreeType's 26.6 fixed point: 64 units a pixel.
    static let units = 64.0

    public let file: String
    private let lock = NSLock()
    private var library: FT_Library?
    private var face: FT_Face?
    private var shaper: OpaquePointer?
    private var currentSize64 = 0
    private var glyphCache: [GlyphKey: GlyphBitmap] = [:]
    private var glyphBytes = 0
    /// Glyph outlines by glyph and size; guarded by `lock` through `withFace`.
    var outlineCache: [GlyphKey: Path] = [:]
    /// The caches are keyed by size, and a request chooses the size (points × any scale it asks for): past these
    /// bounds a cache starts again instead of growing with every new size (bytes of bitmaps, and outlines).
    static let glyphCacheBytes = 16 << 20
    static let outlineCacheCapacity = 4096
    /// Shaped text by text and size (labels are shaped again for every tile, band and frame); guarded by `lock`.
    private var shapeCache: [ShapeKey: Shaped] = [:]
    /// Shapings kept; past this the cache starts again.
    static let shapeCacheCapacity = 8192

    private struct ShapeKey: Hashable {
        let text: String
        let size: Double
    }

    private struct Shaped {
        let glyphs: [PositionedGlyph]
        let advance: Double
        let ascent: Double
        let descent: Double
        let ink: Rect?
    }

    /// Opens a font file; a missing or unreadable file is an error naming it.
    public init(file: String) throws(RasterError) {
        self.file = file
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw .font(file: file, reason: "file not found or not readable (Debian's fonts-inter installs Inter; run make setup)")
        }
        guard FT_Init_FreeType(&library) == 0 else { throw .font(file: file, reason: "FreeType failed to initialize") }
        guard FT_New_Face(library, file, 0, &face) == 0, let face else {
            FT_Done_FreeType(library)
            throw .font(file: file, reason: "FreeType cannot open this file as a font")
        }
        FT_Set_Char_Size(face, 0, 12 * 64, 72, 72)
        currentSize64 = 12 * 64
        shaper = hb_ft_font_create_referenced(face)
        hb_ft_font_set_load_flags(shaper, Int32(FT_LOAD_NO_HINTING))
    }

    deinit {
        hb_font_destroy(shaper)
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// Shapes `text` at `size` pixels: glyph positions on quarter pixels, the advance and the ink bounds that
    /// `Canvas.drawText` will use.
    public func layout(_ text: String, size: Double) throws(RasterError) -> TextLayout {
        guard size > 0, size <= 1024, size.isFinite else { throw .invalid(field: "size", reason: "\(size) is out of range: allowed 0 … 1024 px") }
        lock.lock()
        defer { lock.unlock() }
        let key = ShapeKey(text: text, size: size)
        if let known = shapeCache[key] {
            return TextLayout(font: self, size: size, glyphs: known.glyphs, advance: known.advance, ascent: known.ascent, descent: known.descent,
                              inkBounds: known.ink)
        }
        setSize(size)
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf8(buffer, text, -1, 0, -1)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(shaper, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        var glyphs: [PositionedGlyph] = []
        var penX = 0.0
        var ink: Rect?
        for index in 0..<Int(count) {
            guard let info = infos?[index], let position = positions?[index] else { continue }
            let quarterX = Int(((penX + Double(position.x_offset) / Self.units) * Double(Self.subpixelPhases)).rounded())
            let offsetY = -Double(position.y_offset) / Self.units
            let glyph = PositionedGlyph(id: info.codepoint, quarterX: quarterX, y: offsetY)
            if let box = outlineBox(glyph.id) {
                let placed = Rect(x: box.x + glyph.x, y: box.y + offsetY, width: box.width, height: box.height)
                ink = ink.map { $0.union(placed) } ?? placed
            }
            glyphs.append(glyph)
            penX += Double(position.x_advance) / Self.units
        }
        let metrics = face!.pointee.size.pointee.metrics
        let shaped = Shaped(glyphs: glyphs, advance: penX, ascent: Double(metrics.ascender) / Self.units, descent: -Double(metrics.descender) / Self.units,
                            ink: ink)
        if shapeCache.count >= Self.shapeCacheCapacity { shapeCache.removeAll(keepingCapacity: true) }
        shapeCache[key] = shaped
        return TextLayout(font: self, size: size, glyphs: glyphs, advance: shaped.advance, ascent: shaped.ascent, descent: shaped.descent, inkBounds: ink)
    }

    /// The unhinted outline box of a glyph at the current size, y down from the baseline.
    private func outlineBox(_ glyph: UInt32) -> Rect? {
        guard FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0, let slot = face?.pointee.glyph else { return nil }
        let metrics = slot.pointee.metrics
        guard metrics.width > 0, metrics.height > 0 else { return nil }
        return Rect(x: Double(metrics.horiBearingX) / Self.units, y: -Double(metrics.horiBearingY) / Self.units,
                    width: Double(metrics.width) / Self.units, height: Double(metrics.height) / Self.units)
    }

    private func setSize(_ size: Double) {
        let size64 = Int((size * Self.units).rounded())
        guard size64 != currentSize64 else { return }
        FT_Set_Char_Size(face, 0, FT_F26Dot6(size64), 72, 72)
        hb_ft_font_changed(shaper)
        currentSize64 = size64
    }

    /// Runs `body` with the face set to `size`, holding the font's lock.
    func withFace<T>(size: Double, _ body: (FT_Face) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        setSize(size)
        return body(face!)
    }

    /// The grayscale bitmap of a glyph at a size and subpixel phase, rendered once and cached.
    func bitmap(glyph: UInt32, size: Double, phase: Int) -> GlyphBitmap {
        lock.lock()
        defer { lock.unlock() }
        let key = GlyphKey(glyph: glyph, size64: Int((size * Self.units).rounded()), phase: phase)
        if let cached = glyphCache[key] { return cached }
        setSize(size)
        var delta = FT_Vector(x: FT_Pos(phase * Int(Self.units) / Self.subpixelPhases), y: 0)
        FT_Set_Transform(face, nil, &delta)
        defer { FT_Set_Transform(face, nil, nil) }
        var rendered = GlyphBitmap.empty
        if FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0, let slot = face?.pointee.glyph,
           FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 {
            let bitmap = slot.pointee.bitmap
            let width = Int(bitmap.width)
            let rows = Int(bitmap.rows)
            var coverage = [UInt8](repeating: 0, count: width * rows)
            if let buffer = bitmap.buffer {
                for row in 0..<rows {
                    for column in 0..<width { coverage[row * width + column] = buffer[row * Int(bitmap.pitch) + column] }
                }
            }
            rendered = GlyphBitmap(width: width, height: rows, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), coverage: coverage)
        }
        if glyphBytes + rendered.bytes > Self.glyphCacheBytes {
            glyphCache.removeAll(keepingCapacity: true)
            glyphBytes = 0
        }
        glyphCache[key] = rendered
        glyphBytes += rendered.bytes
        return rendered
    }

    /// What the size-keyed caches hold now: bitmaps, their bytes, outlines.
    var cacheUse: (bitmaps: Int, bytes: Int, outlines: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (glyphCache.count, glyphBytes, outlineCache.count)
    }
}

struct GlyphKey: Hashable {
    let glyph: UInt32
    let size64: Int
    let phase: Int
}

/// A rendered glyph: 8-bit coverage, placed `left` pixels right of the pen and `top` pixels above the baseline.
struct GlyphBitmap: Sendable {
    let width: Int
    let height: Int
    let left: Int
    let top: Int
    let coverage: [UInt8]

    static let empty = GlyphBitmap(width: 0, height: 0, left: 0, top: 0, coverage: [])

    /// What keeping it costs: the coverage and about 100 bytes of entry, struct and array header.
    var bytes: Int { coverage.count + 100 }
}
