import Foundation
import Testing
@testable import GeoCore

@Suite("Viewport")
struct ViewportTests {
    private func williamsburg(zoom: Double = 14.5, insets: EdgeInsets = .zero) throws -> Viewport {
        try Viewport(center: Coordinate(lat: 40.716, lon: -73.9597), zoom: zoom,
                     size: ScreenSize(width: 393, height: 852), scale: 3, insets: insets)
    }

    @Test func roundTripsWithinOneBillionth() throws {
        var generator = SplitMix64(seed: 256)
        for _ in 0..<2_000 {
            let center = try Coordinate(lat: .random(in: -80...80, using: &generator), lon: .random(in: -170...170, using: &generator))
            let viewport = try Viewport(center: center, zoom: .random(in: 6...22, using: &generator),
                                        size: ScreenSize(width: 393, height: 852), scale: 3)
            let point = ScreenPoint(x: .random(in: 0...393, using: &generator), y: .random(in: 0...852, using: &generator))
            let coordinate = try viewport.coordinate(at: point)
            let back = try viewport.point(for: coordinate)
            #expect(abs(back.x - point.x) < 1e-6 && abs(back.y - point.y) < 1e-6, "points round-trip to a millionth of a point")
            let again = try viewport.coordinate(at: back)
            #expect(abs(again.lat - coordinate.lat) < 1e-9 && abs(again.lon - coordinate.lon) < 1e-9)
        }
    }

    @Test func centerScaleAndBounds() throws {
        let viewport = try williamsburg()
        let middle = try viewport.point(for: viewport.center)
        #expect(abs(middle.x - 196.5) < 1e-9 && abs(middle.y - 426) < 1e-9)
        #expect(viewport.pixelWidth == 1179 && viewport.pixelHeight == 2556)
        let zoomZero = try Viewport(center: Coordinate(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 256, height: 256))
        #expect(abs(zoomZero.metresPerPoint - 156_543.033_928_041) < 1e-6, "the classic zoom-0 resolution")
        let bounds = viewport.visibleBounds
        #expect(bounds.west < viewport.center.lon && viewport.center.lon < bounds.east)
        #expect(bounds.south < viewport.center.lat && viewport.center.lat < bounds.north)
        let topLeft = try viewport.point(for: Coordinate(lat: bounds.north, lon: bounds.west))
        #expect(abs(topLeft.x) < 1e-6 && abs(topLeft.y) < 1e-6)
        let doubled = try williamsburg(zoom: 15.5)
        #expect(abs(viewport.metresPerPoint / doubled.metresPerPoint - 2) < 1e-12)
    }

    @Test func refusesBadFields() throws {
        let center = try Coordinate(lat: 40.7, lon: -73.9)
        let size = ScreenSize(width: 393, height: 852)
        #expect(throws: BadField.outOfRange("zoom", given: "23.0", allowed: Viewport.zoomRange)) {
            try Viewport(center: center, zoom: 23, size: size)
        }
        #expect(throws: BadField.notFinite("zoom")) { try Viewport(center: center, zoom: .nan, size: size) }
        #expect(throws: BadField.self) { try Viewport(center: center, zoom: 10, size: ScreenSize(width: 0, height: 10)) }
        #expect(throws: BadField.self) { try Viewport(center: center, zoom: 10, size: size, scale: 5) }
        #expect(throws: BadField.self) { try Viewport(center: Coordinate(lat: 89, lon: 0), zoom: 10, size: size) }
        #expect(throws: BadField.self) {
            try Viewport(center: center, zoom: 10, size: size, insets: EdgeInsets(top: 500, left: 0, bottom: 400, right: 0))
        }
    }
}
