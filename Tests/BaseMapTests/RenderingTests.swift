import Foundation
import GeoCore
import Raster
import Testing
@testable import BaseMap

@Suite("Base map rendering")
struct RenderingTests {
    /// The colour at the centre of a 64-point frame centred on a coordinate.
    private func colorAt(_ lat: Double, _ lon: Double, zoom: Double, renderer: BaseMapRenderer) throws -> Color {
        let canvas = try renderer.render(try Fixtures.view(lat, lon, zoom: zoom, size: 64))
        return canvas.pixel(x: 32, y: 32)
    }

    @Test func waterLandAndParkAreWhereTheyAre() throws {
        let renderer = try Fixtures.renderer()
        let style = renderer.style
        #expect(try colorAt(40.7130, -73.9722, zoom: 15, renderer: renderer) == style.water, "mid East River off Williamsburg")
        #expect(try colorAt(40.7068, -73.9905, zoom: 15, renderer: renderer) == style.water, "East River under the Manhattan Bridge")
        #expect(try colorAt(40.7173, -73.9575, zoom: 15, renderer: renderer) != style.water, "Bedford Av at N 7th St is land")
        #expect(try colorAt(40.7060, -73.9510, zoom: 15, renderer: renderer) != style.water, "inland Williamsburg is land")
        #expect(try colorAt(40.7212, -73.9512, zoom: 15, renderer: renderer) == style.park, "the middle of McCarren Park")
    }

    @Test func streetCentreLineHasItsClassColourAtZoom16() throws {
        let style = try Fixtures.style { $0.replacingOccurrences(of: "\"minZoom\": 15.5", with: "\"minZoom\": 24") }
        let renderer = try Fixtures.renderer(style: style)
        let table = renderer.store.streets
        var checked = 0
        for name in ["Bedford Avenue", "Metropolitan Avenue", "Grand Street", "Driggs Avenue"] {
            guard let feature = (0..<table.count).first(where: { table.names[$0] == name && table.bounds(of: $0).center.y > 4_969_000 && table.bounds(of: $0).center.y < 4_972_000 }) else { continue }
            let points = table.points(ofPart: table.parts(of: feature).lowerBound)
            let longest = points.dropLast().max { a, b in
                hypot(table.xs[a + 1] - table.xs[a], table.ys[a + 1] - table.ys[a]) < hypot(table.xs[b + 1] - table.xs[b], table.ys[b + 1] - table.ys[b])
            }!
            let middle = WebMercator.unprojectUnchecked(MercatorPoint(x: (table.xs[longest] + table.xs[longest + 1]) / 2, y: (table.ys[longest] + table.ys[longest + 1]) / 2))
            let street = try #require(StreetClass(rank: table.classes[feature]))
            #expect(try colorAt(middle.lat, middle.lon, zoom: 16, renderer: renderer) == style.street(street).color, "\(name) (\(street))")
            checked += 1
        }
        #expect(checked >= 3)
    }

    @Test(arguments: [14, 16, 17])
    func twoByTwoTilesEqualTheFrameOfTheSameArea(zoom: Int) throws {
        let renderer = try Fixtures.renderer()
        let corner = try TileID(containing: Coordinate(lat: 40.7173, lon: -73.9572), zoom: zoom)
        let frame = MapView(tile: corner, tileSize: 256, scale: 1)
        let whole = try renderer.render(MapView(origin: frame.origin, pixelsPerMetre: frame.pixelsPerMetre, width: 512, height: 512, zoom: frame.zoom, scale: 1))
        var worst = 0
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let tile = try TileID(z: zoom, x: corner.x + dx, y: corner.y + dy)
            let canvas = try renderer.render(MapView(tile: tile, tileSize: 256, scale: 1))
            for y in 0..<256 {
                for x in 0..<256 {
                    let a = canvas.pixel(x: x, y: y)
                    let b = whole.pixel(x: x + 256 * dx, y: y + 256 * dy)
                    worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                }
            }
        }
        #expect(worst <= 1, "tiles differ from the frame by \(worst)/255")
    }

    @Test func sameViewGivesIdenticalBytes() throws {
        let renderer = try Fixtures.renderer()
        let view = try Fixtures.view(40.7173, -73.9572, zoom: 16.5, size: 300, scale: 2)
        #expect(try PNGCodec.encode(renderer.render(view)) == PNGCodec.encode(renderer.render(view)))
    }
}
