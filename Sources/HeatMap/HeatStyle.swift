import Foundation
import GeoCore
import Raster

/// How the glow looks, read from the `heat` section of the style: kernel radius (points, or ground metres),
/// intensity, the fixed normalization, the colour ramp and the opacity.
public struct HeatStyle: Sendable {
    /// Kernel radius in points (σ = radius / 3, MapLibre's convention), used when `radiusMeters` is nil.
    public let radius: Double
    /// Kernel radius in ground metres: the glow keeps its size on the ground across zooms, and so its colour
    /// (the density of activity on the ground does not depend on the zoom)...
    public let radiusMeters: Double?
    /// ...within this range of radii in points: beyond it the kernel is clamped and its weight scaled by
    /// (σ wanted / σ used)², which keeps each Snap's glow the same total (a kernel density estimate).
    public let radiusRange: ClosedRange<Double>
    public let intensity: Double
    /// The density that maps to the top of the ramp, the same for every tile and frame.
    public let maxDensity: Double
    public let opacity: Double
    /// The most opaque the glow may be at a zoom (zoom, opacity stops, linear between them, held beyond): at street
    /// zoom the middle of a large area thins to it while its edges and colours stay, so what lies under it stays legible.
    public let maxOpacity: [(zoom: Double, opacity: Double)]
    /// How fast a Snap's weight halves, and how many distinct people must have posted in a place before it glows.
    public let halfLifeHours: Double
    public let minimumPosters: Int
    /// The most one person weighs in one cell of the glow, in fresh Snaps (a Snap at the end of its hour weighs 1).
    public let maxWeightPerPoster: Double
    /// How long the public glow stays the same: it is redrawn from a snapshot taken at each epoch's start.
    public let epochSeconds: Int
    /// 256 premultiplied colours from density 0 to maxDensity.
    public let ramp: [Color]

    public static let halfLifeRange: ClosedRange<Double> = 0.1...240
    /// The radii in points a style may ask for (with `radius` or `radiusRange`).
    public static let radiusLimits: ClosedRange<Double> = 1...1000
    public static let minimumPostersRange: ClosedRange<Int> = 1...1000
    public static let maxWeightPerPosterRange: ClosedRange<Double> = 0.01...1000
    public static let epochSecondsRange: ClosedRange<Int> = 1...3600
    /// The zooms `maxOpacity` may name.
    public static let zoomRange: ClosedRange<Double> = 0...24

    public init(radius: Double, radiusMeters: Double?, radiusRange: ClosedRange<Double> = HeatStyle.radiusLimits, intensity: Double,
                maxDensity: Double, opacity: Double, halfLifeHours: Double = 6, minimumPosters: Int = 5, maxWeightPerPoster: Double = 3, epochSeconds: Int = 300,
                maxOpacity: [(zoom: Double, opacity: Double)] = [], stops: [(Double, Color)]) throws(RasterError) {
        guard radiusRange.lowerBound.isFinite, radiusRange.upperBound.isFinite, Self.radiusLimits.contains(radiusRange.lowerBound),
              Self.radiusLimits.contains(radiusRange.upperBound) else {
            throw .invalid(field: "heat.radiusRange", reason: "\(radiusRange) is out of range: allowed [min, max] within 1 … 1000 points")
        }
        guard halfLifeHours.isFinite, Self.halfLifeRange.contains(halfLifeHours) else {
            throw .invalid(field: "heat.halfLifeHours", reason: "\(halfLifeHours) is out of range: allowed \(Self.halfLifeRange.lowerBound) … \(Self.halfLifeRange.upperBound)")
        }
        guard Self.minimumPostersRange.contains(minimumPosters) else {
            throw .invalid(field: "heat.minimumPosters", reason: "\(minimumPosters) is out of range: allowed 1 … 1000")
        }
        guard maxWeightPerPoster.isFinite, Self.maxWeightPerPosterRange.contains(maxWeightPerPoster) else {
            throw .invalid(field: "heat.maxWeightPerPoster", reason: "\(maxWeightPerPoster) is out of range: allowed 0.01 … 1000")
        }
        guard Self.epochSecondsRange.contains(epochSeconds) else {
            throw .invalid(field: "heat.epochSeconds", reason: "\(epochSeconds) is out of range: allowed 1 … 3600")
        }
        for (name, value, range) in [("radius", radius, 1.0...200), ("intensity", intensity, 0.0...100), ("maxDensity", maxDensity, 1e-6...1e9),
                                     ("opacity", opacity, 0.0...1)] {
            guard value.isFinite, range.contains(value) else {
                throw .invalid(field: "heat.\(name)", reason: "\(value) is out of range: allowed \(range.lowerBound) … \(range.upperBound)")
            }
        }
        if let radiusMeters, !(1...5000).contains(radiusMeters) {
            throw .invalid(field: "heat.radiusMeters", reason: "\(radiusMeters) is out of range: allowed 1 … 5000")
        }
        for (index, stop) in maxOpacity.enumerated() {
            guard stop.zoom.isFinite, Self.zoomRange.contains(stop.zoom), index == 0 || stop.zoom > maxOpacity[index - 1].zoom else {
                throw .invalid(field: "heat.maxOpacity[\(index)][0]", reason: "\(stop.zoom) is out of range: allowed zooms 0 … 24, ascending")
            }
            guard stop.opacity.isFinite, (0.0...1).contains(stop.opacity) else {
                throw .invalid(field: "heat.maxOpacity[\(index)][1]", reason: "\(stop.opacity) is out of range: allowed 0 … 1")
            }
        }
        guard stops.count >= 2, stops.first?.0 == 0, stops.last?.0 == 1, zip(stops, stops.dropFirst()).allSatisfy({ $0.0 < $1.0 }) else {
            throw .invalid(field: "heat.ramp", reason: "needs stops from 0 to 1 in ascending order")
        }
        self.radius = radius
        self.radiusMeters = radiusMeters
        self.radiusRange = radiusRange
        self.intensity = intensity
        self.maxDensity = maxDensity
        self.opacity = opacity
        self.halfLifeHours = halfLifeHours
        self.minimumPosters = minimumPosters
        self.maxWeightPerPoster = maxWeightPerPoster
        self.epochSeconds = epochSeconds
        self.maxOpacity = maxOpacity
        ramp = (0..<256).map { step in Self.color(at: Double(step) / 255, stops: stops) }
    }

    /// The ceiling on the glow's opacity at a zoom (1 when the style sets none).
    public func opacityCeiling(at zoom: Double) -> Double {
        guard let first = maxOpacity.first, let last = maxOpacity.last else { return 1 }
        if zoom <= first.zoom { return first.opacity }
        if zoom >= last.zoom { return last.opacity }
        let upper = maxOpacity.firstIndex { $0.zoom >= zoom }!
        let (a, b) = (maxOpacity[upper - 1], maxOpacity[upper])
        return a.opacity + (b.opacity - a.opacity) * (zoom - a.zoom) / (b.zoom - a.zoom)
    }

    /// Straight colours interpolated between stops (alpha too).
    private static func color(at t: Double, stops: [(Double, Color)]) -> Color {
        let upper = stops.firstIndex { $0.0 >= t } ?? stops.count - 1
        guard upper > 0 else { return stops[0].1 }
        let (t0, c0) = stops[upper - 1]
        let (t1, c1) = stops[upper]
        let f = (t - t0) / (t1 - t0)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - f) + Double(b) * f).rounded()) }
        return Color(r: mix(c0.r, c1.r), g: mix(c0.g, c1.g), b: mix(c0.b, c1.b), a: mix(c0.a, c1.a))
    }
}

extension HeatStyle: Decodable {
    /// The `heat` section as written.
    private struct Record: Decodable {
        let radius: Double
        let radiusMeters: Double?
        let radiusRange: [Double]?
        let intensity: Double
        let maxDensity: Double
        let opacity: Double
        let halfLifeHours: Double
        let minimumPosters: Int
        let maxWeightPerPoster: Double
        let epochSeconds: Int
        let maxOpacity: [[Double]]?
        let ramp: [Stop]
    }

    private struct Stop: Decodable {
        let at: Double
        let color: String
    }

    /// Decodes the style's `heat` section and checks it; errors name the field (`heat.ramp[2].color`).
    public init(from decoder: any Decoder) throws {
        let heat = try Record(from: decoder)
        var stops: [(Double, Color)] = []
        for (index, stop) in heat.ramp.enumerated() {
            do {
                stops.append((stop.at, try Color(hex: stop.color)))
            } catch {
                throw DataFileError(file: "", path: "heat.ramp[\(index)].color", message: error.description)
            }
        }
        var range = Self.radiusLimits
        if let pair = heat.radiusRange {
            guard pair.count == 2, pair[0].isFinite, pair[1].isFinite, pair[0] <= pair[1] else {
                throw DataFileError(file: "", path: "heat.radiusRange", message: "expected [min, max] in points with min ≤ max, got \(pair)")
            }
            range = pair[0]...pair[1]
        }
        var ceiling: [(zoom: Double, opacity: Double)] = []
        for (index, pair) in (heat.maxOpacity ?? []).enumerated() {
            guard pair.count == 2 else { throw DataFileError(file: "", path: "heat.maxOpacity[\(index)]", message: "expected [zoom, opacity], got \(pair)") }
            ceiling.append((pair[0], pair[1]))
        }
        do {
            try self.init(radius: heat.radius, radiusMeters: heat.radiusMeters, radiusRange: range, intensity: heat.intensity, maxDensity: heat.maxDensity,
                          opacity: heat.opacity, halfLifeHours: heat.halfLifeHours, minimumPosters: heat.minimumPosters,
                          maxWeightPerPoster: heat.maxWeightPerPoster, epochSeconds: heat.epochSeconds, maxOpacity: ceiling, stops: stops)
        } catch {
            guard case RasterError.invalid(let field, let reason) = error else { throw DataFileError(file: "", path: "heat", message: "\(error)") }
            throw DataFileError(file: "", path: field, message: reason)
        }
    }
}
