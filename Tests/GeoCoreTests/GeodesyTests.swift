import Foundation
import Testing
@testable import GeoCore

@Suite("Geodesy on WGS 84")
struct GeodesyTests {
    /// GeographicLib's documented example: JFK (40.6, -73.8) to LHR (51.6, -0.5) is 5 551 759.400 319 m.
    @Test func karneysPublishedExample() throws {
        let result = Geodesic.wgs84.inverse(try Coordinate(lat: 40.6, lon: -73.8), try Coordinate(lat: 51.6, lon: -0.5))
        #expect(abs(result.distance - 5_551_759.400_319) < 1e-5)
        #expect(abs(result.initialAzimuth - 51.198_882_845_58) < 1e-9)
    }

    @Test func distanceMatchesProjsGeodProgram() throws {
        var generator = SplitMix64(seed: 84)
        var pairs: [(Coordinate, Coordinate)] = []
        for _ in 0..<50 {
            pairs.append((try Coordinate(lat: .random(in: -89...89, using: &generator), lon: .random(in: -180...180, using: &generator)),
                          try Coordinate(lat: .random(in: -89...89, using: &generator), lon: .random(in: -180...180, using: &generator))))
        }
        let input = pairs.map { "\($0.0.lat) \($0.0.lon) \($0.1.lat) \($0.1.lon)" }.joined(separator: "\n") + "\n"
        let output = try TestSupport.run("geod", ["-I", "+ellps=WGS84", "-f", "%.6f"], input: input)
        let lines = output.split(separator: "\n")
        #expect(lines.count == pairs.count)
        for (line, pair) in zip(lines, pairs) {
            let reference = TestSupport.numbers(String(line))[2]
            #expect(abs(Geodesic.wgs84.distance(pair.0, pair.1) - reference) < 0.001)
        }
    }

    @Test func polylineLengthAndInterpolation() throws {
        let route = try Polyline([
            Coordinate(lat: 40.67015, lon: -73.98549),
            Coordinate(lat: 40.6740, lon: -73.9820),
            Coordinate(lat: 40.6790, lon: -73.9800),
            Coordinate(lat: 40.6810, lon: -73.9750),
        ])
        let segments = zip(route.coordinates, route.coordinates.dropFirst()).map { Geodesic.wgs84.distance($0.0, $0.1) }
        #expect(abs(route.length - segments.reduce(0, +)) < 1e-9)
        #expect(try route.coordinate(atDistance: 0) == route.coordinates[0])
        let end = try route.coordinate(atDistance: route.length)
        #expect(Geodesic.wgs84.distance(end, route.coordinates[3]) < 1e-6)
        for fraction in stride(from: 0.05, through: 0.95, by: 0.1) {
            let distance = fraction * route.length
            let point = try route.coordinate(atDistance: distance)
            let passed = zip(route.coordinates, route.cumulativeDistances).filter { $0.1 < distance }.map(\.0)
            let driven = try Polyline(passed + [point])
            #expect(abs(driven.length - distance) < 1e-6, "the point lies `distance` metres along the line")
            let remainder = try Polyline(try route.remainder(fromDistance: distance))
            #expect(abs(distance + remainder.length - route.length) < 1e-6, "driven plus remaining is the whole route")
        }
        #expect(throws: BadField.self) { try route.coordinate(atDistance: route.length + 1) }
        #expect(throws: BadField.self) { try Polyline([Coordinate(lat: 0, lon: 0)]) }
    }
}
