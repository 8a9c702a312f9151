import Foundation
import Testing
@testable import GeoCore

@Suite("Web Mercator fast path")
struct WebMercatorTests {
    /// EPSG Guidance Note 7-2, worked example for EPSG:3857 (Popular Visualisation Pseudo-Mercator).
    @Test func guidanceNoteWorkedExample() throws {
        let lat = 24 + 22.0 / 60 + 54.433 / 3600
        let lon = -(100 + 20.0 / 60)
        let point = try WebMercator.project(Coordinate(lat: lat, lon: lon))
        #expect(abs(point.x - -11_169_055.58) <= 0.01)
        #expect(abs(point.y - 2_800_000.00) <= 0.01)
    }

    @Test func matchesProjForwardAndInverseWithinOneMillimetre() throws {
        var generator = SplitMix64(seed: 3857)
        let count = 150_000
        let lats = (0..<count).map { _ in Double.random(in: -WebMercator.maxLatitude...WebMercator.maxLatitude, using: &generator) }
        let lons = (0..<count).map { _ in Double.random(in: -180...180, using: &generator) }

        var projX = lons
        var projY = lats
        try ProjTransformer(source: ProjTransformer.wgs84, target: ProjTransformer.webMercator).transform(xs: &projX, ys: &projY)
        var fastX = lons
        var fastY = lats
        WebMercator.project(xs: &fastX, ys: &fastY)
        let forwardError = (0..<count).map { max(abs(projX[$0] - fastX[$0]), abs(projY[$0] - fastY[$0])) }.max() ?? .infinity
        #expect(forwardError <= 0.001)

        var backLon = projX
        var backLat = projY
        try ProjTransformer(source: ProjTransformer.webMercator, target: ProjTransformer.wgs84).transform(xs: &backLon, ys: &backLat)
        let metresPerDegree = WebMercator.earthRadius * .pi / 180
        var inverseError = 0.0
        for index in 0..<count {
            let fast = WebMercator.unprojectUnchecked(MercatorPoint(x: projX[index], y: projY[index]))
            let latError = abs(fast.lat - backLat[index]) * metresPerDegree
            let lonError = abs(fast.lon - backLon[index]) * metresPerDegree * cos(fast.lat * .pi / 180)
            inverseError = max(inverseError, latError, lonError)
        }
        #expect(inverseError <= 0.001)
    }

    @Test func worldEdgesAndRoundTrip() throws {
        let corner = try WebMercator.project(Coordinate(lat: WebMercator.maxLatitude, lon: 180))
        #expect(abs(corner.x - WebMercator.halfWorld) < 1e-6)
        #expect(abs(corner.y - WebMercator.halfWorld) < 0.01)
        let williamsburg = try Coordinate(lat: 40.7145, lon: -73.9565)
        let back = try WebMercator.unproject(WebMercator.project(williamsburg))
        #expect(abs(back.lat - williamsburg.lat) < 1e-12 && abs(back.lon - williamsburg.lon) < 1e-12)
    }

    @Test func refusesWhatItCannotProject() throws {
        #expect(throws: BadField.outOfRange("lat", given: "86.0", allowed: -WebMercator.maxLatitude...WebMercator.maxLatitude)) {
            try WebMercator.project(Coordinate(lat: 86, lon: 0))
        }
        #expect(throws: BadField.notFinite("lat")) { try Coordinate(lat: .nan, lon: 0) }
        #expect(throws: BadField.notFinite("lon")) { try Coordinate(lat: 0, lon: .infinity) }
        #expect(throws: BadField.outOfRange("lon", given: "181.0", allowed: -180...180)) { try Coordinate(lat: 0, lon: 181) }
        #expect(throws: BadField.self) { try WebMercator.unproject(MercatorPoint(x: 0, y: 3 * WebMercator.halfWorld)) }
    }
}
