import BaseMap
import Foundation
import GeoCore

/// Makes Mapbox Vector Tiles (MVT 2.1) of the base map: layers `water`, `land`, `parks`, `streets`, `places` and `transit`
/// (`VectorLayerSchema`), extent 4096, geometry clipped to a buffer around the tile, simplified to a tile unit
/// and rounded; layers and features at the zooms the raster style shows them. Safe to share.
public struct VectorTileMaker: Sendable {
    public static let extent = 4096
    /// Tile units kept beyond each edge (tippecanoe's default: 5 pixels of a 256-pixel tile).
    public static let buffer = 80
    /// Douglas–Peucker tolerance in tile units.
    static let tolerance = 1.0

    public let store: BaseMapStore
    public let style: MapStyle
    public let layers: [VectorLayerSchema]
    /// Runs of the shoreline's rings with their bounds.
    let landRuns: PartChunks
    /// The raster zoom from which each water's name stays on the water (by place index).
    let waterZooms: [Int: Double]

    /// The vector tiles of what `baseMap` draws: its store and style.
    public init(_ baseMap: BaseMapRenderer) {
        store = baseMap.store
        style = baseMap.style
        layers = VectorLayerSchema.layers(for: style)
        landRuns = PartChunks(store.land)
        waterZooms = baseMap.waterNameZooms()
    }

    /// The tile's bytes (uncompressed protobuf); empty layers are left out.
    public func tile(_ id: TileID) -> [UInt8] {
        let frame = TileFrame(tile: id, extent: Self.extent, buffer: Self.buffer, tolerance: Self.tolerance)
        let (land, water) = landAndWater(frame)
        var tile = ProtobufWriter()
        for layer in [polygonLayer("water", water), polygonLayer("land", land), parks(frame), streets(frame), places(frame), transit(frame)] where layer.featureCount > 0 {
            tile.bytesField(3, layer.encoded())
        }
        return tile.bytes
    }

    /// The land and the water in the tile (the water is exactly the rest of the square), each as rings in MVT order.
    private func landAndWater(_ frame: TileFrame) -> (land: [[TilePoint]], water: [[TilePoint]]) {
        let table = store.land
        var pieces: [[TilePoint]] = [], whole: [[TilePoint]] = []
        var cornerIsLand = false
        for feature in BaseMapStore.features(of: table, grid: store.landGrid, in: frame.area) {
            for part in table.parts(of: feature) {
                switch frame.cut(table, part: part, runs: landRuns.bounds[part], cornerInside: &cornerIsLand) {
                case .whole(let ring): whole.append(ring)
                case .pieces(let cut): pieces += cut
                case nil: break
                }
            }
        }
        let (stitcher, square) = (frame.stitcher, frame.square)
        let land = (pieces.isEmpty ? (cornerIsLand ? [square] : []) : stitcher.rings(pieces)) + whole
        let water = (pieces.isEmpty ? (cornerIsLand ? [] : [square]) : stitcher.rings(pieces.map { $0.reversed() })) + whole.map { $0.reversed() }
        let minArea = minAreaUnits(frame)
        return (PolygonRings.ordered(land, minArea: minArea), PolygonRings.ordered(water, minArea: minArea))
    }

    /// Rings smaller than the raster style's minimum area (square pixels), in twice square units.
    private func minAreaUnits(_ frame: TileFrame) -> Int64 { Int64(2 * style.minArea * frame.unitsPerPixel * frame.unitsPerPixel) }

    /// One feature of polygons (water or land), or an empty layer.
    private func polygonLayer(_ name: String, _ rings: [[TilePoint]]) -> VectorTileLayer {
        var layer = VectorTileLayer(name: name, extent: Self.extent)
        var encoder = CommandEncoder()
        for ring in rings { encoder.addRing(ring) }
        layer.add(properties: [], type: .polygon, geometry: encoder.integers)
        return layer
    }

    private func parks(_ frame: TileFrame) -> VectorTileLayer {
        var layer = VectorTileLayer(name: "parks", extent: Self.extent)
        guard style.parkMinZoom < frame.styleZooms.until else { return layer }
        let table = store.parks
        for feature in BaseMapStore.features(of: table, grid: store.parkGrid, in: frame.area) where isVisible(table, feature, frame) {
            let rings = PolygonRings.ordered(table.parts(of: feature).map { frame.ring(table, part: $0) }.filter { !$0.isEmpty },
                                             minArea: minAreaUnits(frame))
            var encoder = CommandEncoder()
            for ring in rings { encoder.addRing(ring) }
            var properties: [(String, VectorValue)] = [("area", .int(Int64(groundArea(table, feature).rounded())))]
            if !table.names[feature].isEmpty { properties.insert(("name", .string(table.names[feature])), at: 0) }
            layer.add(id: UInt64(feature + 1), properties: properties, type: .polygon, geometry: encoder.integers)
        }
        return layer
    }

    /// As the raster map: a feature shows when its bounds cover the minimum area or a pixel on their longer side.
    private func isVisible(_ table: FeatureTable, _ feature: Int, _ frame: TileFrame) -> Bool {
        let bounds = table.bounds(of: feature)
        let pixels = frame.unitsPerMetre / frame.unitsPerPixel
        return max(bounds.width, 1e-9) * max(bounds.height, 1e-9) * pixels * pixels >= style.minArea || max(bounds.width, bounds.height) * pixels >= 1
    }

    /// A park's area on the ground in square metres (mercator area scaled by the square of its latitude's cosine).
    private func groundArea(_ table: FeatureTable, _ feature: Int) -> Double {
        var area = 0.0
        for part in table.parts(of: feature) {
            let range = table.points(ofPart: part)
            var previous = range.upperBound - 1
            for index in range {
                area += table.xs[previous] * table.ys[index] - table.xs[index] * table.ys[previous]
                previous = index
            }
        }
        return abs(area) / 2 * Self.groundScale(atY: table.bounds(of: feature).center.y)
    }

    /// Square ground metres per square mercator metre at a mercator y.
    static func groundScale(atY y: Double) -> Double {
        let latitude = WebMercator.unprojectUnchecked(MercatorPoint(x: 0, y: y)).lat * .pi / 180
        return cos(latitude) * cos(latitude)
    }
}
