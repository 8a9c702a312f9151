import Foundation
import GeoCore
import Raster
import Testing
@testable import HeatMap

@Suite("Glow density")
struct DensityTests {
    static let center = try! Coordinate(lat: 40.7173, lon: -73.9572)

    private func view(zoom: Double, width: Double = 120, height: Double = 90, scale: Double = 2, center: Coordinate = DensityTests.center) throws -> MapView {
        MapView(viewport: try Viewport(center: center, zoom: zoom, size: ScreenSize(width: width, height: height), scale: scale))
    }

    private func style(radiusMeters: Double? = nil, maxDensity: Double = 20) throws -> HeatStyle {
        try HeatStyle(radius: 30, radiusMeters: radiusMeters, intensity: 1.3, maxDensity: maxDensity, opacity: 0.8,
                      stops: [(0, Color(r: 124, g: 200, b: 245, a: 0)), (0.5, Color(r: 255, g: 230, b: 107, a: 192)), (1, Color(r: 240, g: 65, b: 60, a: 224))])
    }

    /// Points around the view's centre, some up to 3σ outside it.
    private func points(count: Int, around view: MapView, spreadPixels: Double, seed: UInt64) -> [HeatPoint] {
        var random = SplitMix64(seed: seed)
        let centre = (x: view.origin.x + Double(view.width) / 2 / view.pixelsPerMetre, y: view.origin.y - Double(view.height) / 2 / view.pixelsPerMetre)
        return (0..<count).map { _ in
            HeatPoint(MercatorPoint(x: centre.x + (random.unit() - 0.5) * spreadPixels / view.pixelsPerMetre,
                                    y: centre.y + (random.unit() - 0.5) * spreadPixels / view.pixelsPerMetre), weight: 1 + Double(random.next() % 4))
        }
    }

    @Test(arguments: [(14.0, 200), (16.5, 300)])
    func matchesADirectSumOfGaussiansAtEveryPixel(zoom: Double, count: Int) throws {
        let view = try view(zoom: zoom)
        let style = try style()
        let renderer = HeatRenderer(source: HeatSource(points: points(count: count, around: view, spreadPixels: 600, seed: 5)), style: style)
        let sigma = renderer.sigmaPixels(for: view)
        let field = renderer.density(for: view)
        var worst = 0.0
        var peak = 0.0
        for row in 0..<view.height {
            for column in 0..<view.width {
                let px = Double(column) + 0.5
                let py = Double(row) + 0.5
                var direct = 0.0
                for index in 0..<renderer.source.count {
                    let p = view.pixel(x: renderer.source.xs[index], y: renderer.source.ys[index])
                    let d2 = (p.x - px) * (p.x - px) + (p.y - py) * (p.y - py)
                    direct += style.intensity * renderer.source.weights[index] * exp(-d2 / (2 * sigma * sigma))
                }
                peak = max(peak, direct)
                worst = max(worst, abs(Double(field.values[row * view.width + column]) - direct))
            }
        }
        #expect(worst <= 0.01 * style.maxDensity, "worst error \(worst) against maxDensity \(style.maxDensity)")
        #expect(worst <= 0.01 * peak, "and within 1% of the field's own peak \(peak)")
        #expect(peak > style.maxDensity / 4, "the test field is dense enough to matter")
    }

    @Test func neighbouringTilesMatchOneFrame() throws {
        let zoom = 15
        let left = try TileID(containing: Self.center, zoom: zoom)
        let right = try TileID(z: zoom, x: left.x + 1, y: left.y)
        let leftView = MapView(tile: left, tileSize: 256, scale: 1)
        let frame = MapView(origin: leftView.origin, pixelsPerMetre: leftView.pixelsPerMetre, width: 512, height: 256, zoom: leftView.zoom, scale: 1)
        let cloud = points(count: 200, around: frame, spreadPixels: 500, seed: 9)
        let renderer = HeatRenderer(source: HeatSource(points: cloud), style: try style())
        let whole = try renderer.render(frame)
        var worst = 0
        for (offset, tile) in [(0, left), (256, right)] {
            let image = try renderer.render(MapView(tile: tile, tileSize: 256, scale: 1))
            for row in 0..<256 {
                for column in 0..<256 {
                    for channel in 0..<4 {
                        let a = Int(image.straightRGBA[(row * 256 + column) * 4 + channel])
                        let b = Int(whole.straightRGBA[(row * 512 + column + offset) * 4 + channel])
                        worst = max(worst, abs(a - b))
                    }
                }
            }
        }
        #expect(worst <= 1, "tiles differ from the frame by \(worst)/255")
    }

    @Test func radiusInMetresKeepsTheGlowsGroundSizeAcrossZooms() throws {
        let style = try style(radiusMeters: 150)
        let source = HeatSource(points: [try HeatPoint(coordinate: Self.center, weight: 1)])
        let renderer = HeatRenderer(source: source, style: style)
        let expected = 2 * (2 * log(2.0)).squareRoot() * 50
        for zoom in stride(from: 13.0, through: 17.0, by: 0.5) {
            let view = try view(zoom: zoom, width: 300, height: 61, scale: 1)
            let field = renderer.density(for: view)
            let row = (view.height / 2) * view.width
            let line = (0..<view.width).map { Double(field.values[row + $0]) }
            let top = line.max() ?? 0
            func crossing(_ indices: [Int]) -> Double {
                for (a, b) in zip(indices, indices.dropFirst()) where (line[a] - top / 2) * (line[b] - top / 2) <= 0 {
                    return Double(a) + (top / 2 - line[a]) / (line[b] - line[a]) * Double(b - a)
                }
                return .nan
            }
            let peakIndex = line.firstIndex(of: top) ?? 0
            let widthPixels = crossing(Array(peakIndex..<view.width)) - crossing(Array((0...peakIndex).reversed()))
            let groundMetres = widthPixels / view.pixelsPerMetre * cos(Self.center.lat * .pi / 180)
            #expect(abs(groundMetres - expected) / expected < 0.02, "zoom \(zoom): \(groundMetres) m vs \(expected) m")
        }
    }

    /// Where the radius range clamps the kernel, each Snap's glow keeps its total: the field's sum over a view
    /// that holds it whole is intensity · weight · 2πσ² of the radius in metres (σ in pixels).
    @Test(arguments: [(16.0, 3.0...10.0), (12.0, 30.0...400.0), (15.0, 3.0...400.0)])
    func aClampedKernelKeepsEachSnapsTotal(zoom: Double, range: ClosedRange<Double>) throws {
        let style = try HeatStyle(radius: 30, radiusMeters: 150, radiusRange: range, intensity: 1.3, maxDensity: 20, opacity: 0.8,
                                  stops: [(0, Color(r: 0, g: 0, b: 0, a: 0)), (1, Color(r: 255, g: 0, b: 0, a: 255))])
        let renderer = HeatRenderer(source: HeatSource(points: [try HeatPoint(coordinate: Self.center, weight: 2)], referenceLatitude: Self.center.lat),
                                    style: style)
        let probe = try view(zoom: zoom, width: 10, height: 10, scale: 1)
        let sigma = renderer.sigmaPixels(for: probe)
        let side = Double(Int(sigma * 12) + 2)
        let view = try view(zoom: zoom, width: side, height: side, scale: 1)
        let wanted = 150.0 / 3 / cos(Self.center.lat * .pi / 180) * view.pixelsPerMetre
        let total = renderer.density(for: view).values.reduce(0) { $0 + Double($1) }
        let expected = 1.3 * 2 * 2 * Double.pi * wanted * wanted
        #expect(abs(total - expected) / expected < 0.02, "z\(zoom) σ used \(sigma) px, wanted \(wanted) px: total \(total), expected \(expected)")
    }

    @Test func alphaIsZeroWhereThereIsNoActivityAndBytesRepeat() throws {
        let view = try view(zoom: 15, width: 300, height: 100)
        let cloud = [HeatPoint(MercatorPoint(x: view.origin.x + 20 / view.pixelsPerMetre, y: view.origin.y - 50 / view.pixelsPerMetre), weight: 5)]
        let renderer = HeatRenderer(source: HeatSource(points: cloud), style: try style())
        let image = try renderer.render(view)
        let field = renderer.density(for: view)
        for index in 0..<(view.width * view.height) where field.values[index] == 0 {
            #expect(image.straightRGBA[4 * index + 3] == 0)
        }
        #expect(field.values[50 * view.width + 599] == 0, "far beyond the kernel the density is exactly zero")
        #expect(image.straightRGBA[(50 * view.width + 20) * 4 + 3] > 0)
        #expect(try renderer.render(view).straightRGBA == image.straightRGBA)
    }

    @Test func generatorIsDeterministicAndValidates() throws {
        let spec = ActivityGenerator.Hotspots(seed: 7, endsAt: "2026-11-29T18:00:00Z", hours: 12, hotspots: [
            .init(name: "McCarren Park", lat: 40.7207, lon: -73.9515, spreadMeters: 100, points: 50, weight: [1, 4], posters: 9),
        ])
        let first = try ActivityGenerator.generate(spec) { _ in true }
        #expect(first == (try ActivityGenerator.generate(spec) { _ in true }))
        #expect((50...200).contains(first.count))
        #expect(Set(first.map(\.person)).isSubset(of: Set((0..<9).map { "demo-0-\($0)" })))
        let end = try #require(ISO8601DateFormatter().date(from: "2026-11-29T18:00:00Z"))
        #expect(first.allSatisfy { snap in
            ISO8601DateFormatter().date(from: snap.at).map { $0 <= end && $0 >= end.addingTimeInterval(-12 * 3600) } ?? false
        })
        let places = Set(first.map { "\($0.lat),\($0.lon)" }).compactMap { try? Coordinate(parsing: $0, field: "p") }
        let median = places.map { Geodesic.wgs84.distance($0, try! Coordinate(lat: 40.7207, lon: -73.9515)) }.sorted()[places.count / 2]
        #expect(places.count == 50 && median > 60 && median < 180, "Rayleigh spread with σ = 100 m has a median of 118 m")
        let bad = ActivityGenerator.Hotspots(seed: 7, endsAt: "2026-11-29T18:00:00Z", hours: 12,
                                             hotspots: [.init(name: "x", lat: 95, lon: 0, spreadMeters: 10, points: 1, weight: [1, 1], posters: 1)])
        #expect(throws: BadField.self) { try ActivityGenerator.generate(bad) { _ in true } }
        // Water west of a meridian through the hotspot's centre's east: every place is redrawn onto land, and a
        // centre in the water is refused.
        let east = { (place: Coordinate) in place.lon > -73.9520 }
        let dry = try ActivityGenerator.generate(spec, isLand: east)
        #expect(dry.count >= 50 && dry.allSatisfy { $0.lon > -73.9520 })
        #expect(throws: BadField.self) { try ActivityGenerator.generate(spec) { $0.lon > -73.9500 } }
    }
}
