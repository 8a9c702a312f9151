import BaseMap
import Foundation
import GeoCore

/// The driving speed on each street class, read from data (`Data/routing/speeds.json`, km/h per OSM class);
/// every class must have one, in `allowedRange`.
public struct StreetSpeeds: Sendable, Equatable {
    public static let allowedRange: ClosedRange<Double> = 1...130
    /// Metres per second, indexed by `StreetClass.rank`.
    public let metresPerSecond: [Double]

    /// Speeds in km/h by class; a missing class, an unknown one or a speed outside `allowedRange` is refused by name.
    public init(kilometresPerHour: [String: Double]) throws(BadField) {
        for name in kilometresPerHour.keys where StreetClass(rawValue: name) == nil {
            throw BadField(field: "speeds.\(name)", message: "is not a street class (\(StreetClass.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var speeds: [Double] = []
        for streetClass in StreetClass.allCases {
            guard let speed = kilometresPerHour[streetClass.rawValue] else {
                throw BadField(field: "speeds.\(streetClass.rawValue)", message: "is missing: every street class needs a speed")
            }
            guard speed.isFinite, Self.allowedRange.contains(speed) else {
                throw BadField.outOfRange("speeds.\(streetClass.rawValue)", given: "\(speed)", allowed: Self.allowedRange, unit: "km/h")
            }
            speeds.append(speed / 3.6)
        }
        metresPerSecond = speeds
    }

    /// Reads a JSON object of km/h per class, naming the file when it cannot be read.
    public init(contentsOf url: URL) throws(BadField) {
        let object: [String: Double]
        do {
            object = try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: url))
        } catch {
            throw BadField(field: url.lastPathComponent, message: "is not a JSON object of km/h per street class: \(error.localizedDescription)")
        }
        try self.init(kilometresPerHour: object)
    }

    /// Metres per second on a street of `streetClass`.
    public func speed(of streetClass: StreetClass) -> Double { metresPerSecond[Int(streetClass.rank)] }
}
