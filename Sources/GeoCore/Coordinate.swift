import Foundation

/// A WGS 84 position in degrees. Construction validates: finite, latitude within ±90, longitude within ±180.
public struct Coordinate: Hashable, Sendable, Codable, CustomStringConvertible {
    public static let latitudeRange: ClosedRange<Double> = -90...90
    public static let longitudeRange: ClosedRange<Double> = -180...180

    public let lat: Double
    public let lon: Double

    /// Validates both fields; errors name `lat` or `lon` (prefixed by `field` when given).
    public init(lat: Double, lon: Double, field: String = "") throws(BadField) {
        let prefix = field.isEmpty ? "" : field + "."
        try BadField.check(lat, prefix + "lat", in: Self.latitudeRange)
        try BadField.check(lon, prefix + "lon", in: Self.longitudeRange)
        self.lat = lat
        self.lon = lon
    }

    /// For values already known to be valid (results of GeoCore's own math).
    init(uncheckedLat lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// Parses the text form `LAT,LON`.
    public init(parsing text: String, field: String) throws(BadField) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw BadField(field: field, message: "expected LAT,LON in degrees, got \"\(text)\"")
        }
        try self.init(lat: lat, lon: lon, field: field)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let lat = try container.decode(Double.self, forKey: .lat)
        let lon = try container.decode(Double.self, forKey: .lon)
        do {
            try self.init(lat: lat, lon: lon)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public var description: String { "\(lat),\(lon)" }

    /// Throws unless the latitude is inside Web Mercator's range.
    public func checkProjectable(field: String = "lat") throws(BadField) {
        try BadField.check(lat, field, in: -WebMercator.maxLatitude...WebMercator.maxLatitude)
    }
}
