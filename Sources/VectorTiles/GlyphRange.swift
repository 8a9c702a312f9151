import Raster

/// A range of 256 Unicode scalars of a font as MapLibre's glyph protobufs hold them: each glyph a signed
/// distance field at 24 pixels with a 3-pixel border, its metrics, and its advance.
public struct GlyphRange: Sendable, Equatable {
    public static let pixels = 24.0
    static let border = 3
    static let radius = 8.0
    static let cutoff = 0.25
    /// The highest range start (the Basic Multilingual Plane's last range).
    public static let lastStart = 65_280

    public let start: Int

    /// Parses `START-END` with START a multiple of 256 up to `lastStart` and END = START + 255.
    public init?(parsing text: Substring) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let start = parts[0], let end = parts[1], start % 256 == 0, (0...Self.lastStart).contains(start), end == start + 255 else {
            return nil
        }
        self.start = start
    }

    /// The `glyphs` message: one font stack named `fontStack` with the glyphs `font` has in the range.
    public func encoded(font: Font, fontStack: String) -> [UInt8] {
        var stack = ProtobufWriter()
        stack.stringField(1, fontStack)
        stack.stringField(2, "\(start)-\(start + 255)")
        let ascent = font.ascent(size: Self.pixels)
        for scalar in start...(start + 255) {
            guard let glyph = font.glyphImage(for: UInt32(scalar), size: Self.pixels) else { continue }
            var message = ProtobufWriter()
            message.varintField(1, UInt64(scalar))
            if glyph.width > 0, glyph.height > 0 {
                message.bytesField(2, SignedDistanceField.make(coverage: glyph.coverage, width: glyph.width, height: glyph.height, buffer: Self.border,
                                                               radius: Self.radius, cutoff: Self.cutoff))
            }
            message.varintField(3, UInt64(glyph.width))
            message.varintField(4, UInt64(glyph.height))
            message.varintField(5, ProtobufWriter.zigzag(Int64(glyph.left)))
            // Measured from the ascent, as MapLibre's glyph servers (fontnik) give it.
            message.varintField(6, ProtobufWriter.zigzag(Int64(glyph.top) - Int64(ascent.rounded())))
            message.varintField(7, UInt64(max(0, glyph.advance.rounded())))
            stack.bytesField(3, message.bytes)
        }
        var glyphs = ProtobufWriter()
        glyphs.bytesField(1, stack.bytes)
        return glyphs.bytes
    }
}
