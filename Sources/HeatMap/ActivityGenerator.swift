import Foundation
import GeoCore

/// Makes the glow's sample activity: weighted snap locations scattered around named hotspots with a
/// Gaussian spread, from a seed, so the same hotspots file always gives the same points.
public enum ActivityGenerator {
    /// One place where people snap.
    public struct Hotspot: Codable, Sendable {
        public let name: String
        public let lat: Double
        public let lon: Double
        public let spreadMeters: Double
        public let points: Int
        /// The smallest and largest weight of a snap, inclusive.
        public let weight: [Int]
    }

    public struct Hotspots: Codable, Sendable {
        public let seed: UInt64
        public let hotspots: [Hotspot]
    }

    /// A weighted location as written to `activity.json`.
    public struct Snap: Codable, Equatable, Sendable {
        public let lat: Double
        public let lon: Double
        public let weight: Double
    }

    /// The file's contents: where the points came from and the points.
    public struct Activity: Codable, Sendable {
        public let source: String
        public let seed: UInt64
        public let points: [Snap]
    }

    public static let maxPointsPerHotspot = 10_000

    public static func generate(_ spec: Hotspots) throws(GeoError) -> Activity {
        var random = SplitMix64(seed: spec.seed)
        var snaps: [Snap] = []
        for (index, hotspot) in spec.hotspots.enumerated() {
            let field = "hotspots[\(index)]"
            let center = try Coordinate(lat: hotspot.lat, lon: hotspot.lon, field: field)
            try GeoError.check(hotspot.spreadMeters, field + ".spreadMeters", in: 1...5000)
            try GeoError.check(Double(hotspot.points), field + ".points", in: 0...Double(maxPointsPerHotspot))
            guard hotspot.weight.count == 2, hotspot.weight[0] >= 0, hotspot.weight[0] <= hotspot.weight[1] else {
                throw .invalid(field: field + ".weight", reason: "expected [min, max] with 0 ≤ min ≤ max")
            }
            for _ in 0..<hotspot.points {
                let distance = hotspot.spreadMeters * (-2 * log(max(random.unit(), 1e-12))).squareRoot()
                let azimuth = 360 * random.unit()
                let place = Geodesic.wgs84.destination(from: center, azimuth: azimuth, distance: distance)
                let weight = hotspot.weight[0] + Int(random.unit() * Double(hotspot.weight[1] - hotspot.weight[0] + 1))
                snaps.append(Snap(lat: (place.lat * 1e6).rounded() / 1e6, lon: (place.lon * 1e6).rounded() / 1e6,
                                  weight: Double(min(weight, hotspot.weight[1]))))
            }
        }
        return Activity(source: "snapmap generate-activity from hotspots.json", seed: spec.seed, points: snaps)
    }
}
