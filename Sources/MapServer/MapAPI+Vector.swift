import Foundation
import GeoCore
import MapEngine
import TileExport
import VectorTiles

extension MapAPI {
    /// A base map vector tile: gzipped when the client accepts it (each encoding its own tag, `Vary` says so),
    /// made on the render pool and kept in the tile cache in both encodings.
    func vectorTile(_ tile: TileID, _ request: HTTPRequest) -> HTTPResponse {
        let gzip = request.acceptsGzip
        let key = "mvt/\(tile)" + (gzip ? ".gz" : "")
        let (vectorTiles, tiles) = (self.vectorTiles, self.tiles)
        let type = TileFormat.mvt.contentType
        let headers = gzip ? [("Content-Encoding", "gzip")] : []
        let tag = EntityTag.of([Self.code, baseMapData, engine.styleSections.vectorTiles, key])
        return conditional(request, tag: tag, cacheControl: Self.tileCacheControl, vary: "Accept-Encoding") {
            if let cached = tiles.value(key) { return HTTPResponse(status: 200, contentType: type, body: cached, headers: headers) }
            return renders.answer { _ in
                var body = vectorTiles.tile(tile)
                if gzip {
                    guard let compressed = Gzip.compress(body) else { return Self.json(500, ["error": "internal error"]) }
                    body = compressed
                }
                tiles.store(body, for: key, cost: body.count)
                return HTTPResponse(status: 200, contentType: type, body: body, headers: headers)
            }
        }
    }
}

/// TileJSON 3.0.0 for the base map's vector tiles, with their `vector_layers`.
struct VectorTileJSON: Encodable {
    let tilejson = "3.0.0"
    let name = "snapmap"
    let scheme = "xyz"
    let tiles: [String]
    let minzoom = 0
    let maxzoom = VectorLayerSchema.maxZoom
    let bounds: [Double]
    let center: [Double]
    let attribution = MBTilesFile.attribution
    let vector_layers: [VectorLayerSchema]

    init(engine: MapEngine, layers: [VectorLayerSchema], host: String?) {
        let raster = TileJSON(engine: engine, host: host)
        tiles = raster.tiles.map { $0.replacingOccurrences(of: ".png", with: ".mvt") }
        bounds = raster.bounds
        let view = engine.scene.viewport
        center = [view.center.lon, view.center.lat, MapLibreStyle.glZoom(view.zoom).rounded()]
        vector_layers = layers
    }
}
