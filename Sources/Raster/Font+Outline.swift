import CFreeType
import Foundation
import Planar

extension Font {
    /// The unhinted outline of a glyph at `size` pixels as a path, origin on the baseline at the pen
    /// position, y down. Used to draw text that follows a line (rotated glyphs).
    public func glyphPath(_ glyph: UInt32, size: Double) -> Path {
        withFace(size: size) { face in
            let key = GlyphKey(glyph: glyph, size64: Int((size * Font.units).rounded()), phase: -1)
            if let cached = outlineCache[key] { return cached }
            var path = Path()
            if FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0, let slot = face.pointee.glyph,
               slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
                path = OutlineCollector.path(of: &slot.pointee.outline)
            }
            if outlineCache.count >= Font.outlineCacheCapacity { outlineCache.removeAll(keepingCapacity: true) }
            outlineCache[key] = path
            return path
        }
    }
}

/// Receives FreeType's outline callbacks and builds a `Path` (26.6 units to pixels, y flipped).
private final class OutlineCollector {
    var path = Path()

    static func point(_ vector: UnsafePointer<FT_Vector>?) -> Point {
        guard let vector else { return Point(0, 0) }
        return Point(Double(vector.pointee.x) / Font.units, -Double(vector.pointee.y) / Font.units)
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> OutlineCollector {
        Unmanaged<OutlineCollector>.fromOpaque(user!).takeUnretainedValue()
    }

    static func path(of outline: inout FT_Outline) -> Path {
        let collector = OutlineCollector()
        var functions = FT_Outline_Funcs(
            move_to: { to, user in
                let path = OutlineCollector.from(user)
                if !path.path.isEmpty { path.path.close() }
                path.path.move(to: OutlineCollector.point(to))
                return 0
            },
            line_to: { to, user in
                OutlineCollector.from(user).path.line(to: OutlineCollector.point(to))
                return 0
            },
            conic_to: { control, to, user in
                OutlineCollector.from(user).path.quad(control: OutlineCollector.point(control), to: OutlineCollector.point(to))
                return 0
            },
            cubic_to: { control1, control2, to, user in
                OutlineCollector.from(user).path.cubic(control1: OutlineCollector.point(control1), control2: OutlineCollector.point(control2), to: OutlineCollector.point(to))
                return 0
            },
            shift: 0, delta: 0)
        let user = Unmanaged.passUnretained(collector).toOpaque()
        _ = withExtendedLifetime(collector) { FT_Outline_Decompose(&outline, &functions, user) }
        if !collector.path.isEmpty { collector.path.close() }
        return collector.path
    }
}
