import CFreeType

/// One character's glyph as FreeType renders it, for glyph atlases: 8-bit coverage rows, its place relative to
/// the pen on the baseline (`left` right of it, `top` above it) and the pen's advance, in pixels.
public struct GlyphImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let left: Int
    public let top: Int
    public let advance: Double
    public let coverage: [UInt8]
}

extension Font {
    /// The glyph of a Unicode scalar at `size` pixels, unhinted; nil when the font has no glyph for it.
    public func glyphImage(for scalar: UInt32, size: Double) -> GlyphImage? {
        let found: (index: UInt32, advance: Double)? = withFace(size: size) { face in
            let index = FT_Get_Char_Index(face, FT_ULong(scalar))
            guard index != 0, FT_Load_Glyph(face, index, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0, let slot = face.pointee.glyph else { return nil }
            return (index, Double(slot.pointee.advance.x) / Self.units)
        }
        guard let found else { return nil }
        let bitmap = bitmap(glyph: found.index, size: size, phase: 0)
        return GlyphImage(width: bitmap.width, height: bitmap.height, left: bitmap.left, top: bitmap.top, advance: found.advance, coverage: bitmap.coverage)
    }

    /// The font's ascent above the baseline at `size` pixels.
    public func ascent(size: Double) -> Double {
        withFace(size: size) { Double($0.pointee.size.pointee.metrics.ascender) / Self.units }
    }
}
