import Foundation
import PinLayout
import Raster

/// Measures label text with the font that draws it, at the pixel size it will be drawn (points × scale), so
/// the layout's label widths are exactly what the renderer draws. Results are cached.
public final class FontMeasurer: TextMeasuring, @unchecked Sendable {
    private struct Key: Hashable {
        let text: String
        let fontSize: Double
    }

    let font: Font
    let scale: Double
    private let lock = NSLock()
    private var cache: [Key: Double] = [:]

    public init(font: Font, scale: Double) {
        self.font = font
        self.scale = scale
    }

    public func advance(of text: String, fontSize: Double) -> Double {
        let key = Key(text: text, fontSize: fontSize)
        lock.lock()
        if let cached = cache[key] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let advance = ((try? font.layout(text, size: fontSize * scale).advance) ?? 0) / scale
        lock.lock()
        cache[key] = advance
        lock.unlock()
        return advance
    }
}
