import Foundation
import Planar

/// What a fill puts down where its shape covers: a solid colour, a radial gradient or an image.
public enum Paint: Sendable {
    case solid(Color)
    case radialGradient(RadialGradient)
    case image(Image, in: Rect)
}

/// Colours along the radius of a circle, interpolated in premultiplied space; beyond the last stop the
/// last colour continues.
public struct RadialGradient: Sendable {
    public let center: Point
    public let radius: Double
    public let stops: [(offset: Double, color: Color)]
    /// 256 premultiplied samples from the center to the radius.
    let table: [Premultiplied16]

    /// Needs a positive radius and at least one stop; offsets are clamped to 0…1 and sorted.
    public init(center: Point, radius: Double, stops: [(offset: Double, color: Color)]) throws(RasterError) {
        guard radius > 0, radius.isFinite else { throw .invalid(field: "radius", reason: "must be a positive number, got \(radius)") }
        guard !stops.isEmpty else { throw .invalid(field: "stops", reason: "need at least one colour stop") }
        let sorted = stops.map { (min(max($0.offset, 0), 1), $0.color) }.sorted { $0.0 < $1.0 }
        self.center = center
        self.radius = radius
        self.stops = sorted.map { (offset: $0.0, color: $0.1) }
        table = (0..<256).map { step in Self.sample(sorted, at: Double(step) / 255) }
    }

    private static func sample(_ stops: [(Double, Color)], at t: Double) -> Premultiplied16 {
        guard let upper = stops.firstIndex(where: { $0.0 >= t }) else { return stops[stops.count - 1].1.premultiplied16 }
        guard upper > 0 else { return stops[0].1.premultiplied16 }
        let (t0, c0) = stops[upper - 1]
        let (t1, c1) = stops[upper]
        let f = t1 > t0 ? (t - t0) / (t1 - t0) : 1
        let (p0, p1) = (c0.premultiplied16, c1.premultiplied16)
        func mix(_ a: UInt32, _ b: UInt32) -> UInt32 { UInt32((Double(a) * (1 - f) + Double(b) * f).rounded()) }
        return Premultiplied16(r: mix(p0.r, p1.r), g: mix(p0.g, p1.g), b: mix(p0.b, p1.b), a: mix(p0.a, p1.a))
    }

    @inline(__always)
    func color(x: Double, y: Double) -> Premultiplied16 {
        let dx = x - center.x
        let dy = y - center.y
        let t = min((dx * dx + dy * dy).squareRoot() / radius, 1)
        return table[Int(t * 255 + 0.5)]
    }
}
