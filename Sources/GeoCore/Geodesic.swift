import CProj

/// Geodesics on the WGS 84 ellipsoid through PROJ's implementation of Karney's algorithms.
/// The routines are pure functions of the ellipsoid, so the type is safe to share.
public struct Geodesic: Sendable {
    /// The WGS 84 semi-major axis in metres and flattening.
    public static let wgs84 = Geodesic(semiMajorAxis: 6_378_137, flattening: 1 / 298.257223563)

    private let ellipsoid: geod_geodesic

    public init(semiMajorAxis: Double, flattening: Double) {
        var ellipsoid = geod_geodesic()
        geod_init(&ellipsoid, semiMajorAxis, flattening)
        self.ellipsoid = ellipsoid
    }

    /// The shortest distance in metres between two coordinates, with the azimuths at both ends in degrees.
    public func inverse(_ from: Coordinate, _ to: Coordinate) -> (distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
        var geodesic = ellipsoid
        var distance = 0.0
        var azimuth1 = 0.0
        var azimuth2 = 0.0
        geod_inverse(&geodesic, from.lat, from.lon, to.lat, to.lon, &distance, &azimuth1, &azimuth2)
        return (distance, azimuth1, azimuth2)
    }

    /// The shortest distance in metres between two coordinates.
    public func distance(_ from: Coordinate, _ to: Coordinate) -> Double {
        inverse(from, to).distance
    }

    /// The coordinate `distance` metres from `from` along the geodesic towards `to`.
    public func coordinate(from: Coordinate, towards to: Coordinate, distance: Double) -> Coordinate {
        var geodesic = ellipsoid
        var line = geod_geodesicline()
        geod_inverseline(&line, &geodesic, from.lat, from.lon, to.lat, to.lon, 0)
        var lat = 0.0
        var lon = 0.0
        geod_position(&line, distance, &lat, &lon, nil)
        return Coordinate(uncheckedLat: lat, lon: Self.normalizedLongitude(lon))
    }

    /// The coordinate at `distance` metres from `from` along `azimuth` degrees (the direct problem).
    public func destination(from: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        var geodesic = ellipsoid
        var lat = 0.0
        var lon = 0.0
        geod_direct(&geodesic, from.lat, from.lon, azimuth, distance, &lat, &lon, nil)
        return Coordinate(uncheckedLat: lat, lon: Self.normalizedLongitude(lon))
    }

    private static func normalizedLongitude(_ lon: Double) -> Double {
        var value = lon.truncatingRemainder(dividingBy: 360)
        if value > 180 { value -= 360 }
        if value < -180 { value += 360 }
        return value
    }
}
