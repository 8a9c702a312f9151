import Foundation
import Planar

/// Blurred coverage masks of shadows, kept by shape and blur: pins cast the same soft shadow again and again, so
/// a shadow placed on whole pixels (`Canvas.drawShadow(…, masks:)`) is rasterized and blurred once per shape.
public final class ShadowMasks: @unchecked Sendable {
    struct Key: Hashable {
        let elements: [Path.Element]
        let width: Int
        let height: Int
        let sigma: Double
    }

    /// A blurred mask as the 16-bit coverage amounts compositing takes (0…65535).
    struct Mask {
        let width: Int
        let height: Int
        let amounts: [UInt32]
    }

    /// A mask tinted: the shadow's premultiplied colour scaled by each amount as `Canvas.blend` scales it.
    struct Tint {
        let colors: [SIMD4<UInt16>]
    }

    struct TintKey: Hashable {
        let mask: Key
        let color: Premultiplied16
    }

    /// Masks kept; past this the cache starts again (pins use a handful of shapes).
    public static let capacity = 256
    /// Tinted masks kept (8 bytes a pixel, a label's about 0.4 MB at @3x); past this the cache starts again.
    public static let tintCapacity = 64

    private let lock = NSLock()
    private var masks: [Key: Mask] = [:]
    private var tints: [TintKey: Tint] = [:]

    /// The mask of a path tinted with `color`, made once per shape and colour.
    func tint(for local: Path, width: Int, height: Int, sigma: Double, color: Premultiplied16) -> Tint {
        let key = TintKey(mask: Key(elements: local.elements, width: width, height: height, sigma: sigma), color: color)
        lock.lock()
        if let known = tints[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let source = SIMD4<UInt32>(color.r, color.g, color.b, color.a)
        let tint = Tint(colors: mask(for: local, width: width, height: height, sigma: sigma).amounts.map { amount in
            SIMD4<UInt16>(truncatingIfNeeded: amount == 65535 ? source : Blend.divide65535(source &* amount))
        })
        lock.lock()
        defer { lock.unlock() }
        if tints.count >= Self.tintCapacity { tints.removeAll(keepingCapacity: true) }
        tints[key] = tint
        return tint
    }

    public init() {}

    /// The mask of a path in mask coordinates (its bounds inside a margin of 3σ + 1), made once.
    func mask(for local: Path, width: Int, height: Int, sigma: Double) -> Mask {
        let key = Key(elements: local.elements, width: width, height: height, sigma: sigma)
        // Made under the lock: threads drawing the same new shape at once (frames of an animation) make it once.
        lock.lock()
        defer { lock.unlock() }
        if let known = masks[key] { return known }
        let accumulator = CoverageAccumulator(width: width, height: height)
        accumulator.add(PolygonRings(PathFlattener.contours(of: local)))
        var values = [Float](repeating: 0, count: width * height)
        accumulator.sweep(rule: .nonZero) { row, columns, uniform in
            for column in columns { values[row * width + column] = uniform ?? accumulator.coverage[column] }
        }
        if sigma > 0 { GaussianBlur.blur(&values, width: width, height: height, kernel: GaussianBlur.kernel(sigma: sigma)) }
        let mask = Mask(width: width, height: height, amounts: values.map(Blend.coverage16))
        if masks.count >= Self.capacity { masks.removeAll(keepingCapacity: true) }
        masks[key] = mask
        return mask
    }
}

extension Canvas {
    /// Shadow shapes are snapped to 1/`shadowGrid` of a pixel (invisible under a blur).
    static let shadowGrid = 256.0

    /// Draws the soft shadow of a path placed on whole pixels (moved by less than half a pixel, invisible in a
    /// blur), with its blurred mask from `masks`.
    public func drawShadow(of path: Path, color: Color, sigma: Double, offset: Point, masks: ShadowMasks) {
        let device = path.transformed(by: .translation(offset.x, offset.y))
        guard let bounds = device.controlBounds, sigma >= 0, bounds.minX.isFinite, bounds.minY.isFinite,
              abs(bounds.minX) < 1e7, abs(bounds.minY) < 1e7 else { return }
        let margin = Int((3 * sigma).rounded(.up)) + 1
        let x0 = Int(bounds.minX.rounded()) - margin
        let frameY0 = Int(bounds.minY.rounded()) - margin
        let y0 = frameY0 - originY
        // On a grid of 1/256 px, so that the same shape anywhere (whose translated points differ in their last bits) is one mask.
        let (dx, dy) = (-bounds.minX + bounds.minX.rounded() - Double(x0), -bounds.minY + bounds.minY.rounded() - Double(frameY0))
        let local = device.mapped { Point(((($0.x + dx) * Self.shadowGrid).rounded()) / Self.shadowGrid, ((($0.y + dy) * Self.shadowGrid).rounded()) / Self.shadowGrid) }
        let maskWidth = Int((bounds.width).rounded(.up)) + 2 * margin + 1
        let maskHeight = Int((bounds.height).rounded(.up)) + 2 * margin + 1
        guard x0 < width, y0 < height, x0 + maskWidth > 0, y0 + maskHeight > 0, maskWidth * maskHeight <= Self.maxPixels else { return }
        let tint = masks.tint(for: local, width: maskWidth, height: maskHeight, sigma: sigma, color: color.premultiplied16)
        let canvasWidth = width
        let rows = max(0, -y0)..<min(maskHeight, height - y0)
        let columns = max(0, -x0)..<min(maskWidth, width - x0)
        touched.mark(rows: (rows.lowerBound + y0)..<(rows.upperBound + y0), columns: (columns.lowerBound + x0)..<(columns.upperBound + x0))
        storage.withUnsafeMutableBufferPointer { pixels in
            tint.colors.withUnsafeBufferPointer { colors in
                for row in rows {
                    for column in columns {
                        // A colour scaled to nothing (alpha 0, so every channel 0) leaves the pixel as it is.
                        let scaled = colors[row * maskWidth + column]
                        if scaled[3] > 0 {
                            Self.blend(scaled: SIMD4<UInt32>(truncatingIfNeeded: scaled), into: pixels, at: ((row + y0) * canvasWidth + column + x0) * 4)
                        }
                    }
                }
            }
        }
    }
}
