import Foundation
import GeoCore

/// Makes the demo's public Snaps: locations scattered around named hotspots with a Gaussian spread, on land
/// only (a place that falls in the water is drawn again), each posted by one of the hotspot's regulars at a time
/// in the hours before `endsAt`, from a seed, so the same hotspots file always gives the same Snaps. They are
/// loaded like any other Snaps (`snapmap snaps import`).
public enum ActivityGenerator {
    /// One place where people snap.
    public struct Hotspot: Codable, Sendable {
        public let name: String
        public let lat: Double
        public let lon: Double
        public let spreadMeters: Double
        public let points: Int
        /// The smallest and largest number of Snaps at one point, inclusive.
        public let weight: [Int]
        /// How many different people post here.
        public let posters: Int
    }

    public struct Hotspots: Codable, Sendable {
        public let seed: UInt64
        /// The Snaps are taken in the `hours` before this ISO 8601 time.
        public let endsAt: String
        public let hours: Double
        public let hotspots: [Hotspot]
    }

    /// One generated Snap, as a line of the JSON Lines file.
    public struct Snap: Codable, Equatable, Sendable {
        public let person: String
        public let lat: Double
        public let lon: Double
        public let at: String
    }

    public static let maxPointsPerHotspot = 10_000
    public static let maxPosters = 1_000
    /// Draws of one place before a hotspot is judged to be mostly water.
    public static let maxDrawsPerPlace = 1_000

    /// The Snaps of `spec`, every place on land by `isLand`; a hotspot whose centre is in the water is an error.
    public static func generate(_ spec: Hotspots, isLand: (Coordinate) -> Bool) throws(BadField) -> [Snap] {
        guard let end = ISO8601Time.date(from: spec.endsAt) else {
            throw BadField(field: "endsAt", message: "expected an ISO 8601 time such as \(ISO8601Time.example)")
        }
        try BadField.check(spec.hours, "hours", in: 0...24)
        var random = SplitMix64(seed: spec.seed)
        var snaps: [Snap] = []
        let formatter = ISO8601DateFormatter()
        for (index, hotspot) in spec.hotspots.enumerated() {
            let field = "hotspots[\(index)]"
            let center = try Coordinate(lat: hotspot.lat, lon: hotspot.lon, field: field)
            try BadField.check(hotspot.spreadMeters, field + ".spreadMeters", in: 1...5000)
            try BadField.check(Double(hotspot.points), field + ".points", in: 0...Double(maxPointsPerHotspot))
            try BadField.check(Double(hotspot.posters), field + ".posters", in: 1...Double(maxPosters))
            guard hotspot.weight.count == 2, hotspot.weight[0] >= 0, hotspot.weight[0] <= hotspot.weight[1] else {
                throw BadField(field: field + ".weight", message: "expected [min, max] with 0 ≤ min ≤ max")
            }
            guard isLand(center) else {
                throw BadField(field: field, message: "the centre of \"\(hotspot.name)\" (\(hotspot.lat), \(hotspot.lon)) lies in the water; move it onto land")
            }
            for _ in 0..<hotspot.points {
                var place = center
                var draws = 0
                repeat {
                    guard draws < maxDrawsPerPlace else {
                        throw BadField(field: field, message: "\(maxDrawsPerPlace) draws around \"\(hotspot.name)\" found no land; make spreadMeters smaller")
                    }
                    draws += 1
                    let distance = hotspot.spreadMeters * (-2 * log(max(random.unit(), 1e-12))).squareRoot()
                    let azimuth = 360 * random.unit()
                    place = Geodesic.wgs84.destination(from: center, azimuth: azimuth, distance: distance)
                } while !isLand(place)
                let count = min(hotspot.weight[0] + Int(random.unit() * Double(hotspot.weight[1] - hotspot.weight[0] + 1)), hotspot.weight[1])
                for _ in 0..<count {
                    let poster = "demo-\(index)-\(Int(random.unit() * Double(hotspot.posters)))"
                    let seconds = (random.unit() * spec.hours * 3600).rounded()
                    snaps.append(Snap(person: poster, lat: (place.lat * 1e6).rounded() / 1e6, lon: (place.lon * 1e6).rounded() / 1e6,
                                      at: formatter.string(from: end.addingTimeInterval(-seconds))))
                }
            }
        }
        return snaps
    }
}
