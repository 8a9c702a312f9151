import Foundation
import Testing
@testable import GeoCore

@Suite("XYZ tiles")
struct TileIDTests {
    /// Published example: the tile whose upper-left corner is (-9.140625, 53.33087298301705) is 10/486/332.
    @Test func publishedTileAndQuadkey() throws {
        let tile = try TileID(containing: Coordinate(lat: 53.33087298301705, lon: -9.140625), zoom: 10)
        #expect(tile == (try TileID(z: 10, x: 486, y: 332)))
        #expect(tile.quadkey == "0313102310")
        #expect(try TileID(quadkey: "0313102310") == tile)
        #expect(abs(tile.geoBounds.west - -9.140625) < 1e-9)
        #expect(abs(tile.geoBounds.north - 53.33087298301705) < 1e-9)
        #expect(tile.tmsY == 1023 - 332)
        #expect(try TileID(z: 10, x: 486, tmsY: 691) == tile)
    }

    @Test func boundsParentsAndChildren() throws {
        let world = try TileID(z: 0, x: 0, y: 0)
        #expect(world.mercatorBounds == MercatorRect(minX: -WebMercator.halfWorld, minY: -WebMercator.halfWorld,
                                                     maxX: WebMercator.halfWorld, maxY: WebMercator.halfWorld))
        #expect(world.parent == nil)
        #expect(world.quadkey == "")
        let tile = try TileID(z: 14, x: 4826, y: 6157)
        #expect(tile.children.count == 4)
        for child in tile.children {
            #expect(child.parent == tile)
            let outer = tile.mercatorBounds
            let inner = child.mercatorBounds
            #expect(inner.minX >= outer.minX && inner.maxX <= outer.maxX && inner.minY >= outer.minY && inner.maxY <= outer.maxY)
            #expect(try TileID(quadkey: child.quadkey) == child)
        }
        #expect(Set(tile.children).count == 4)
        #expect((try TileID(z: 22, x: 0, y: 0)).children.isEmpty)
    }

    /// A tile's north-west corner is where its neighbours' rectangles end (no gap, no overlap beyond a rounding of
    /// the sum), and mercantile's `ul` projected: the corner a tile's pixels start from.
    @Test func tilesMeetAtTheirCorners() throws {
        for zoom in 1...22 {
            let tile = try TileID(containing: Coordinate(lat: 40.7128, lon: -73.9597), zoom: zoom)
            let rect = tile.mercatorBounds
            let east = try TileID(z: zoom, x: tile.x + 1, y: tile.y)
            let south = try TileID(z: zoom, x: tile.x, y: tile.y + 1)
            #expect(rect.minX == tile.topLeft.x && rect.maxY == tile.topLeft.y, "z\(zoom)")
            #expect(abs(rect.maxX - east.topLeft.x) <= rect.maxX.ulp && abs(rect.minY - south.topLeft.y) <= rect.minY.ulp, "z\(zoom)")
            let n = Double(1 << zoom)
            let ul = try Coordinate(lat: atan(sinh(Double.pi * (1 - 2 * Double(tile.y) / n))) * 180 / .pi, lon: Double(tile.x) / n * 360 - 180)
            let projected = try WebMercator.project(ul)
            #expect(abs(projected.x - tile.topLeft.x) < 1e-6 && abs(projected.y - tile.topLeft.y) < 1e-6, "z\(zoom)")
        }
    }

    @Test func coversABoundingBoxOverZooms() throws {
        let williamsburg = try GeoBoundingBox(west: -73.972, south: 40.700, east: -73.930, north: 40.728)
        let cover = try TileCover(bounds: williamsburg, zooms: 12...16)
        let tiles = cover.tiles
        #expect(tiles.count == cover.count)
        #expect(Set(tiles).count == tiles.count)
        for zoom in 12...16 {
            let level = tiles.filter { $0.z == zoom }
            let corners = [
                try TileID(containing: Coordinate(lat: 40.728, lon: -73.972), zoom: zoom),
                try TileID(containing: Coordinate(lat: 40.700, lon: -73.930), zoom: zoom),
            ]
            #expect(corners.allSatisfy(level.contains))
            let xs = Set(level.map(\.x))
            let ys = Set(level.map(\.y))
            #expect(level.count == xs.count * ys.count, "a full rectangle of tiles")
        }
        let edgeAligned = try TileID(z: 3, x: 2, y: 2).geoBounds
        let exact = try TileCover(bounds: edgeAligned, zooms: 3...3)
        #expect(exact.tiles == [try TileID(z: 3, x: 2, y: 2)], "a box on tile edges does not spill into neighbours")
    }

    @Test func refusesBadTiles() {
        #expect(throws: BadField.self) { try TileID(z: 23, x: 0, y: 0) }
        #expect(throws: BadField.self) { try TileID(z: 2, x: 4, y: 0) }
        #expect(throws: BadField.self) { try TileID(z: 2, x: 0, y: -1) }
        #expect(throws: BadField.self) { try TileID(quadkey: "0314") }
        #expect(throws: BadField.self) { try TileID(parsing: "1/2") }
        #expect(throws: BadField.self) { try GeoBoundingBox(parsing: "-73.9,40.7,-74.0,40.8", field: "bbox") }
        #expect(throws: BadField.self) { try TileCover(bounds: GeoBoundingBox(west: 0, south: 0, east: 1, north: 89), zooms: 0...2) }
    }
}
