import DeliveryTracking
import Foundation
import GeoCore
import MapEngine
import MapRequest
import PinLayout
import Raster
import TileExport

/// `/tiles/{z}/{x}/{y}.png`, `…@2x.png`, `/tiles/{z}/{x}/{y}.mvt` and `/heat/{z}/{x}/{y}.png`.
struct TilePath {
    let tile: TileID
    let scale: Double
    let heat: Bool
    let format: TileFormat

    /// nil when the path is not a tile path; a tile path with a bad tile is an error.
    init?(_ path: String) throws {
        let heat = path.hasPrefix("/heat/")
        guard heat || path.hasPrefix("/tiles/") else { return nil }
        guard let format = TileFormat.allCases.first(where: { path.hasSuffix("." + $0.rawValue) }), !heat || format == .png else { return nil }
        var rest = path.dropFirst(heat ? 6 : 7).dropLast(format.rawValue.count + 1)
        scale = format == .png && rest.hasSuffix("@2x") ? 2 : 1
        if scale == 2 { rest = rest.dropLast(3) }
        self.format = format
        do {
            tile = try TileID(parsing: String(rest), field: "tile")
        } catch {
            throw BadField(field: "tile", message: error.description)
        }
        self.heat = heat
    }
}

extension MapAPI {
    func tile(_ path: TilePath, _ request: HTTPRequest) throws -> HTTPResponse {
        if path.format == .mvt { return vectorTile(path.tile, request) }
        guard path.heat else {
            let key = "base/\(path.tile)@\(Int(path.scale))"
            let (engine, tiles) = (self.engine, self.tiles)
            let tag = EntityTag.of([Self.code, baseMapData, engine.styleSections.baseMap, key])
            return conditional(request, tag: tag, cacheControl: Self.tileCacheControl) {
                if let cached = tiles.value(key) { return HTTPResponse(status: 200, contentType: "image/png", body: cached) }
                return renders.answer { _ in
                    let response = try Self.png(engine.renderTile(path.tile, scale: path.scale))
                    tiles.store(response.body, for: key, cost: response.body.count)
                    return response
                }
            }
        }
        // The glow changes only from one epoch to the next (new Snaps, decay): the tag covers the points of the epoch's
        // snapshot that colour this tile (so only tiles near a change get a new one) and the glow's style when any
        // does, and it keys the cache.
        let now = clock()
        let view = MapView(tile: path.tile, tileSize: 256, scale: path.scale)
        let tag = EntityTag.of([Self.code, "heat/\(path.tile)@\(Int(path.scale))", engine.glowInputs(for: view, now: now) ?? "no glow"])
        let (engine, tiles) = (self.engine, self.tiles)
        return conditional(request, tag: tag, cacheControl: Self.heatCacheControl) {
            if let cached = tiles.value(tag) { return HTTPResponse(status: 200, contentType: "image/png", body: cached) }
            return renders.answer { _ in
                let response = try Self.png(engine.renderHeatTile(path.tile, scale: path.scale, now: now))
                tiles.store(response.body, for: tag, cost: response.body.count)
                return response
            }
        }
    }

    static let heatCacheControl = "public, max-age=60"

    /// `http://` and the request's Host when it is a plain host name, else the loopback address.
    static func origin(_ host: String?) -> String { "http://" + (host.flatMap { StaticFiles.isHost($0) ? $0 : nil } ?? "127.0.0.1") }

    /// The delivery-tracking snapshot (drawn on the render pool, off the server's threads, like every frame) and
    /// courier state.
    func routes(_ request: HTTPRequest, _ parameters: RequestParameters) throws -> HTTPResponse {
        let (route, options) = try parameters.route(in: tracker.routes)
        let progress = request.path.hasSuffix("state.json") ? try parameters.progress() : nil
        let inputs = [routeData, request.path] + request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try conditional(request, tag: EntityTag.of(inputs), cacheControl: "public, max-age=3600") {
            let frame = try tracker.frame(route, options: options)
            guard let progress else {
                let tracker = self.tracker
                return renders.answer { _ in try Self.png(tracker.renderTrackingMap(frame)) }
            }
            return try Self.encoded(tracker.courier(on: route, progress: progress, frame: frame), status: 200)
        }
    }
}

/// TileJSON 3.0.0 for the base and glow tiles.
struct TileJSON: Encodable {
    let tilejson = "3.0.0"
    let name = "snapmap"
    let tiles: [String]
    let heat: [String]
    let minzoom = MapEngine.offeredTileZooms.lowerBound
    let maxzoom = MapEngine.offeredTileZooms.upperBound
    let bounds: [Double]
    let center: [Double]
    let attribution = MBTilesFile.attribution

    init(engine: MapEngine, host: String?) {
        let origin = MapAPI.origin(host)
        tiles = [origin + "/tiles/{z}/{x}/{y}.png"]
        heat = [origin + "/heat/{z}/{x}/{y}.png"]
        let bounds = engine.baseMap.store.land.minXs.indices.map(engine.baseMap.store.land.bounds(of:))
            .reduce(engine.baseMap.store.land.bounds(of: 0)) { $0.union($1) }.geoBounds
        self.bounds = [bounds.west, bounds.south, bounds.east, bounds.north]
        let view = engine.scene.viewport
        center = [view.center.lon, view.center.lat, view.zoom.rounded()]
    }
}
