import Foundation
import Planar

/// A separable Gaussian blur of a grid of floats (a coverage mask, a density grid): one horizontal pass, one
/// vertical, with a kernel that reaches a given number of σ.
public enum GaussianBlur {
    /// The kernel for `sigma` out to `reach` σ: normalized to sum 1, or with `amplitude` as its peak.
    public static func kernel(sigma: Double, reach: Double = 3, amplitude: Double? = nil) -> [Float] {
        let radius = max(1, Int((reach * sigma).rounded(.up)))
        let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let scale = amplitude ?? 1 / weights.reduce(0, +)
        return weights.map { Float($0 * scale) }
    }

    /// Blurs `grid` (width × height, row-major) in place with a symmetric kernel of odd length. Each output sums
    /// its taps in kernel order (the same arithmetic at every size), rows in place and columns a whole row at a
    /// time, so the compiler can vectorise across a row.
    public static func blur(_ grid: inout [Float], width: Int, height: Int, kernel weights: [Float]) {
        guard width > 0, height > 0 else { return }
        let radius = weights.count / 2
        var line = [Float](repeating: 0, count: width)
        var source = [Float](repeating: 0, count: width * height)
        weights.withUnsafeBufferPointer { w in
            grid.withUnsafeMutableBufferPointer { g in
                line.withUnsafeMutableBufferPointer { l in
                    for row in 0..<height {
                        let out = g.baseAddress! + row * width
                        for x in 0..<width { l[x] = out[x] }
                        for x in 0..<width { out[x] = 0 }
                        for k in -radius...radius {
                            let weight = w[k + radius]
                            let input = l.baseAddress! + k
                            for x in max(0, -k)..<max(max(0, -k), min(width, width - k)) { out[x] += input[x] * weight }
                        }
                    }
                }
                source.withUnsafeMutableBufferPointer { src in
                    _ = src.initialize(from: g)
                    for y in 0..<height {
                        let out = g.baseAddress! + y * width
                        for x in 0..<width { out[x] = 0 }
                        for k in max(-radius, -y)...min(radius, height - 1 - y) {
                            let weight = w[k + radius]
                            let input = src.baseAddress! + (y + k) * width
                            for x in 0..<width { out[x] += input[x] * weight }
                        }
                    }
                }
            }
        }
    }
}

extension Canvas {
    /// Draws the soft shadow of a path: its coverage, offset, blurred with `sigma` pixels and tinted `color`.
    public func drawShadow(of path: Path, color: Color, sigma: Double, offset: Point = Point(0, 0), transform: AffineTransform = .identity) {
        let device = path.transformed(by: transform.then(.translation(offset.x, offset.y)))
        guard let bounds = device.controlBounds, sigma >= 0 else { return }
        let margin = (3 * sigma).rounded(.up) + 1
        let x0 = max(0, Int((bounds.minX - margin).rounded(.down)))
        let y0 = max(0, Int((bounds.minY - margin).rounded(.down)))
        let x1 = min(width, Int((bounds.maxX + margin).rounded(.up)))
        let y1 = min(height, Int((bounds.maxY + margin).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let maskWidth = x1 - x0
        let maskHeight = y1 - y0
        let local = CoverageAccumulator(width: maskWidth, height: maskHeight)
        local.add(PolygonRings(PathFlattener.contours(of: device.transformed(by: .translation(-Double(x0), -Double(y0))))))
        var mask = [Float](repeating: 0, count: maskWidth * maskHeight)
        local.sweep(rule: .nonZero) { row, columns, uniform in
            for column in columns { mask[row * maskWidth + column] = uniform ?? local.coverage[column] }
        }
        if sigma > 0 { GaussianBlur.blur(&mask, width: maskWidth, height: maskHeight, kernel: GaussianBlur.kernel(sigma: sigma)) }
        let source = color.premultiplied16
        let canvasWidth = width
        touched.mark(rows: y0..<y1, columns: x0..<x1)
        storage.withUnsafeMutableBufferPointer { pixels in
            for row in 0..<maskHeight {
                for column in 0..<maskWidth {
                    let coverage = mask[row * maskWidth + column]
                    if coverage > 0 {
                        Self.blend(source, coverage: coverage, into: pixels, at: ((row + y0) * canvasWidth + column + x0) * 4)
                    }
                }
            }
        }
    }

    /// Draws an image scaled into `rect` with bilinear filtering, optionally clipped to the anti-aliased circle
    /// (or ellipse) inscribed in `rect`, as avatars are.
    public func drawImage(_ image: Image, in rect: Rect, clipToCircle: Bool = false, opacity: Double = 1) {
        let shape = clipToCircle ? Path.ellipse(in: rect) : Path.rect(rect)
        fill(shape, paint: .image(image, in: rect), opacity: opacity)
    }
}
