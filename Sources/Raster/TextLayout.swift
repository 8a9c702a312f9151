import Foundation
import Planar

/// One glyph of shaped text: its id and its pen position in quarter pixels from the text's origin.
public struct PositionedGlyph: Hashable, Sendable {
    public let id: UInt32
    public let quarterX: Int
    public let y: Double

    public var x: Double { Double(quarterX) / Double(Font.subpixelPhases) }
}

/// Shaped text at a size: exactly what `Canvas.drawText` draws, so measuring and drawing agree.
/// Geometry is relative to the origin: the left end of the baseline, y down.
public struct TextLayout: Sendable {
    public let font: Font
    public let size: Double
    public let glyphs: [PositionedGlyph]
    /// The pen advance: where the next text would start.
    public let advance: Double
    /// The font's ascent above and descent below the baseline at this size.
    public let ascent: Double
    public let descent: Double
    /// The union of the glyphs' outline boxes; nil for text with no ink (spaces only).
    public let inkBounds: Rect?

    /// The ink bounds when drawn at `origin` (which `drawText` snaps to whole pixels).
    public func inkBounds(at origin: Point) -> Rect? {
        let snapped = TextLayout.snap(origin)
        return inkBounds.map { Rect(x: $0.x + snapped.x, y: $0.y + snapped.y, width: $0.width, height: $0.height) }
    }

    static func snap(_ origin: Point) -> Point { Point(origin.x.rounded(), origin.y.rounded()) }
}

extension Canvas {
    /// Draws shaped text with its baseline starting at `origin` (snapped to whole pixels); returns the advance used.
    @discardableResult
    public func drawText(_ layout: TextLayout, at origin: Point, color: Color) -> Double {
        let start = TextLayout.snap(origin)
        let source = color.premultiplied16
        let canvasWidth = width
        let canvasHeight = height
        storage.withUnsafeMutableBufferPointer { pixels in
            for glyph in layout.glyphs {
                let whole = Int((Double(glyph.quarterX) / Double(Font.subpixelPhases)).rounded(.down))
                let phase = glyph.quarterX - whole * Font.subpixelPhases
                let bitmap = layout.font.bitmap(glyph: glyph.id, size: layout.size, phase: phase)
                let left = Int(start.x) + whole + bitmap.left
                let top = Int(start.y) + Int(glyph.y.rounded()) - bitmap.top - originY
                let (from, to) = (max(0, left), min(canvasWidth, left + bitmap.width))
                if from < to { touched.mark(rows: top..<(top + bitmap.height), columns: from..<to) }
                for row in 0..<bitmap.height {
                    let y = top + row
                    guard y >= 0, y < canvasHeight else { continue }
                    for column in 0..<bitmap.width {
                        let x = left + column
                        let value = bitmap.coverage[row * bitmap.width + column]
                        guard x >= 0, x < canvasWidth, value > 0 else { continue }
                        Self.blend(source, coverage: Float(value) / 255, into: pixels, at: (y * canvasWidth + x) * 4)
                    }
                }
            }
        }
        return layout.advance
    }
}
