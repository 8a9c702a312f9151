import Foundation

/// An RGBA image (an avatar, a decoded PNG): straight 8-bit pixels, with a premultiplied 16-bit copy for drawing.
public struct Image: Sendable {
    public let width: Int
    public let height: Int
    /// Straight (un-premultiplied) RGBA, row-major.
    public let straightRGBA: [UInt8]
    /// Premultiplied RGBA at 16 bits a channel, as the canvas composites.
    let premultiplied: [UInt16]

    /// Validates the size against the canvas limits and the pixel count against the size.
    public init(width: Int, height: Int, straightRGBA: [UInt8]) throws(RasterError) {
        guard (1...Canvas.maxSide).contains(width), (1...Canvas.maxSide).contains(height), width * height <= Canvas.maxPixels else {
            throw .canvasTooLarge(width: width, height: height, maxSide: Canvas.maxSide, maxPixels: Canvas.maxPixels)
        }
        guard straightRGBA.count == width * height * 4 else {
            throw .invalid(field: "straightRGBA", reason: "expected \(width * height * 4) bytes for \(width)×\(height), got \(straightRGBA.count)")
        }
        self.init(uncheckedWidth: width, height: height, straightRGBA: straightRGBA)
    }

    init(uncheckedWidth width: Int, height: Int, straightRGBA: [UInt8]) {
        self.width = width
        self.height = height
        self.straightRGBA = straightRGBA
        var premultiplied = [UInt16](repeating: 0, count: straightRGBA.count)
        for index in Swift.stride(from: 0, to: straightRGBA.count, by: 4) {
            let p = Color(r: straightRGBA[index], g: straightRGBA[index + 1], b: straightRGBA[index + 2], a: straightRGBA[index + 3]).premultiplied16
            premultiplied[index] = UInt16(p.r)
            premultiplied[index + 1] = UInt16(p.g)
            premultiplied[index + 2] = UInt16(p.b)
            premultiplied[index + 3] = UInt16(p.a)
        }
        self.premultiplied = premultiplied
    }

    /// Premultiplied colours of the image pixel at (x, y) clamped to the edges.
    @inline(__always)
    private func texel(_ x: Int, _ y: Int) -> (Double, Double, Double, Double) {
        let index = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 4
        return (Double(premultiplied[index]), Double(premultiplied[index + 1]), Double(premultiplied[index + 2]), Double(premultiplied[index + 3]))
    }

    /// Bilinear sample at image coordinates (pixel centres at half-integers), premultiplied, edges clamped.
    func sampleBilinear(x: Double, y: Double) -> Premultiplied16 {
        let fx = x - 0.5
        let fy = y - 0.5
        let x0 = Int(fx.rounded(.down))
        let y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0)
        let ty = fy - Double(y0)
        let (a, b, c, d) = (texel(x0, y0), texel(x0 + 1, y0), texel(x0, y0 + 1), texel(x0 + 1, y0 + 1))
        func mix(_ p: Double, _ q: Double, _ r: Double, _ s: Double) -> UInt32 {
            UInt32(((p * (1 - tx) + q * tx) * (1 - ty) + (r * (1 - tx) + s * tx) * ty).rounded())
        }
        return Premultiplied16(r: mix(a.0, b.0, c.0, d.0), g: mix(a.1, b.1, c.1, d.1), b: mix(a.2, b.2, c.2, d.2), a: mix(a.3, b.3, c.3, d.3))
    }
}
