import DeliveryTracking
import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapRequest
import MapScene
import Orders
import PinLayout
import Raster
import VectorTiles

/// The map as URLs. Public: base and glow tiles, TileJSON, route frames, the web viewer, `/healthz/…`. Private,
/// behind a bearer token: the signed-in person's location, sharing, friends, blocks, and their map (frames,
/// layouts, taps, zooms, events), made only of what the visibility rule lets them see. Time is the server's
/// clock. Bad input is 4xx JSON naming the field; nothing here can crash the server.
public final class MapAPI: Sendable {
    /// Bytes of encoded tiles kept in memory.
    public static let tileCacheBytes = 256 * 1024 * 1024
    public static let maxQueryParameters = 16
    static let tileCacheControl = "public, max-age=86400"
    /// Location updates a person may send: 10 a second, bursts of 20.
    static let locationRate = (rate: 10.0, burst: 20.0)

    let engine: MapEngine
    /// The engine's base map as Mapbox Vector Tiles.
    let vectorTiles: VectorTileMaker
    /// The delivery-tracking map, drawn from the engine's base map data.
    let tracker: DeliveryTracker
    let live: LiveMapService
    let events: EventHub
    let files: StaticFiles
    let tiles = ByteBudgetCache<String, [UInt8]>(budget: MapAPI.tileCacheBytes)
    /// Each viewer's layout answers while nothing that reaches them changes (nil: every layout is made afresh).
    let layoutAnswers: LayoutAnswers?
    /// Base and glow of the viewports viewers look at, drawn once and shared (each viewer's pins go over a copy).
    let sharedLayers: SharedLayers?
    let renders = RenderPool()
    /// The host names private answers are given under (nil: any); a page on another name that resolves here
    /// (DNS rebinding) gets no private data.
    let allowedHosts: Set<String>?
    let locationLimiter = RateLimiter(rate: MapAPI.locationRate.rate, burst: MapAPI.locationRate.burst)
    /// The orders being driven now (nil on a store that keeps no orders).
    let drives: LiveDrives?
    let writeLimiter = RateLimiter(rate: 5, burst: 30)
    /// Public Snaps a person may post: 4 a second, bursts of 20.
    let snapLimiter = RateLimiter(rate: 4, burst: 20)
    /// The base map's data (its cache file), and the delivery routes' data and styles, for the tags of answers drawn from them.
    let baseMapData: String
    let routeData: String
    /// Stands for the code in every tag, and for the label font the glyphs, labels and cards are drawn with: a release
    /// that draws differently changes it.
    static let code = "snapmap-4"
    let stopping = StopFlag()
    let clock: @Sendable () -> Date

    /// Serves `engine` over `live`, feeding the engine's glow from the store's Snaps at `clock`; `keepsLayouts` keeps
    /// each viewer's layout answers while nothing that reaches them changes (only over a current `LiveView`).
    public init(engine: MapEngine, live: LiveMapService, clock: @escaping @Sendable () -> Date = { Date() }, sharesLayers: Bool = true,
                allowedHosts: Set<String>? = nil, keepsLayouts: Bool = true) throws {
        layoutAnswers = keepsLayouts ? LayoutAnswers() : nil
        self.allowedHosts = allowedHosts
        sharedLayers = sharesLayers ? SharedLayers(budget: MapEngine.sharedLayerBudget) : nil
        self.engine = engine
        vectorTiles = VectorTileMaker(engine.baseMap)
        tracker = DeliveryTracker(engine: engine)
        self.live = live
        self.clock = clock
        events = EventHub(live: live, clock: clock)
        baseMapData = Self.fingerprint(engine.paths.baseMapCacheDirectory.appendingPathComponent("basemap.bin"))
        drives = Self.drives(engine: engine, live: live, baseMapData: baseMapData)
        Self.followOrders(live: live, drives: drives, events: events, clock: clock)
        files = StaticFiles(webDirectory: engine.paths.dataDirectory.appendingPathComponent("web"),
                            mapLibreDirectory: StaticFiles.mapLibreDirectory(dataDirectory: engine.paths.dataDirectory))
        try LiveGlow.connect(engine.glow.aggregate, live: live, clock: clock)
        let (tiles, sharedLayers, glow, layoutAnswers, groupings) = (self.tiles, self.sharedLayers, engine.glow.aggregate, self.layoutAnswers, engine.groupings)
        let limiters = [locationLimiter, writeLimiter, snapLimiter]
        live.observe { change in
            guard case .removed(let person) = change else { return }
            // A new account taking the id is not held back by the deleted one's requests.
            for limiter in limiters { limiter.forget(person.rawValue) }
            // No kept layout or grouping holds a byte of a deleted account (the stamps already keep layouts from being
            // answered; a grouping is only reused for exactly the same friends).
            layoutAnswers?.removeAll()
            groupings.removeAll()
            // A deleted account's Snaps leave the glow at the next epoch: then the drawn tiles and layers that held
            // them go too (again a moment later, for a render of the old epoch that finished meanwhile).
            let next = glow.settings.start(of: glow.settings.epoch(of: clock()) + 1).timeIntervalSince(clock())
            for delay in [next + 0.05, next + 2] {
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, delay)) {
                    tiles.removeAll()
                    sharedLayers?.removeAll()
                }
            }
        }
        let routeFiles = [engine.paths.trackingStyleFile, engine.paths.dataDirectory.appendingPathComponent(RouteCatalog.file),
                          engine.paths.dataDirectory.appendingPathComponent(TrackingOverlayStyle.file)]
        routeData = EntityTag.of([Self.code, baseMapData] + routeFiles.map(Self.fingerprint))
    }

    /// The event streams, for the server to sweep.
    public var eventHub: EventHub { events }

    /// Forgets the Snaps that left the glow's window, in the aggregate and in the store.
    public func pruneGlow() throws {
        let now = clock()
        engine.glow.aggregate.prune(at: now)
        _ = try live.store.pruneSnaps(before: now.addingTimeInterval(-LiveMapService.snapWindow))
    }

    /// Answers one request; errors become JSON with a 4xx or 5xx status.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard !request.queryRefused else {
            return Self.json(400, ["error": "the URL has an encoded control character (%00-%1F or %7F), or its query more than 64 parameters or 8 KiB"])
        }
        guard request.query.count <= Self.maxQueryParameters else {
            return Self.json(400, ["error": "too many query parameters: at most \(Self.maxQueryParameters)"])
        }
        do {
            if request.path.hasPrefix("/v1/me/") || request.path == "/v1/me" { return try me(request) }
            guard request.method == "GET" || request.method == "HEAD" else {
                return Self.json(405, ["error": "method \(request.method.prefix(16)) is not allowed; use GET or HEAD"], headers: [("Allow", "GET, HEAD")])
            }
            return try route(request)
        } catch {
            return Self.failure(error)
        }
    }

    static func failure(_ error: any Error) -> HTTPResponse {
        switch error {
        case let error as BadField: return json(400, ["error": error.description, (error.place == .document ? "field" : "parameter"): error.field])
        case let error as LiveMapError:
            switch error {
            case .invalid(let bad): return failure(bad)
            case .notFound: return json(404, ["error": error.description])
            case .noLiveShare: return json(404, ["error": error.description, "parameter": "id"])
            case .conflict: return json(409, ["error": error.description])
            case .unavailable: return json(503, ["error": "the live store is unavailable; try again"], headers: [("Retry-After", "1")])
            }
        case let error as RasterError: return json(400, ["error": error.description])
        case let error as UnknownFriend: return json(404, ["error": error.description])
        case let error as StreetsNotReady: return json(503, ["error": error.description], headers: [("Retry-After", String(StreetsNotReady.retryAfter))])
        case is RenderStopped: return json(RenderPool.clientLeftStatus, ["error": "the client left before its answer was made"])
        default: return json(500, ["error": "internal error"])
        }
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = RequestParameters(request.query)
        if let health = try health(request.path) { return health }
        switch request.path {
        case "/tiles.json":
            return try tagged(request, TileJSON(engine: engine, host: request.host), cacheControl: Self.tileCacheControl, vary: "Host")
        case "/vector.json":
            return try tagged(request, VectorTileJSON(engine: engine, layers: vectorTiles.layers, host: request.host), cacheControl: Self.tileCacheControl, vary: "Host")
        case "/openapi.json":
            return try contract(request)
        case "/styles/snapmap.json":
            return tagged(request, json: mapLibreStyle(origin: Self.origin(request.host), glyphs: true), cacheControl: "public, max-age=300", vary: "Host")
        case "/v1/route/frame.png", "/v1/route/state.json":
            return try routes(request, parameters)
        default:
            if let tile = try TilePath(request.path) { return try self.tile(tile, request) }
            if let glyphs = glyphs(request) { return glyphs }
            if let file = files.file(for: request.path) {
                return HTTPResponse(status: 200, contentType: file.type, body: [UInt8](try Data(contentsOf: file.url)),
                                    headers: [("Cache-Control", "public, max-age=300")] + StaticFiles.headers(for: file.type))
            }
            return Self.json(404, ["error": "no such resource: \(request.path.prefix(80))"])
        }
    }

    /// Answers with 304 when the client already has `tag`, else with `make()` tagged.
    /// `vary` names the request header the answer depends on besides the path (it goes on the 304 too).
    func conditional(_ request: HTTPRequest, tag: String, cacheControl: String, vary: String? = nil,
                     _ make: () throws -> HTTPResponse) rethrows -> HTTPResponse {
        let headers = [("ETag", tag), ("Cache-Control", cacheControl)] + (vary.map { [("Vary", $0)] } ?? [])
        if EntityTag.matches(request.ifNoneMatch, tag) { return HTTPResponse(status: 304, contentType: "application/octet-stream", body: [], headers: headers) }
        var response = try make()
        if let produce = response.deferred {
            response.deferred = { reply in
                produce(reply.mapping { final in
                    var final = final
                    if final.status == 200 { final.headers += headers }
                    return final
                })
            }
        } else if response.status == 200 {
            response.headers += headers
        }
        return response
    }

    static func json(_ status: Int, _ body: [String: String], headers: [(String, String)] = []) -> HTTPResponse {
        (try? encoded(body, status: status, headers: headers)) ?? HTTPResponse(status: 500, contentType: "application/json", body: Array("{}".utf8))
    }

    static func encoded<T: Encodable>(_ value: T, status: Int, headers: [(String, String)] = []) throws -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: try CompactJSONEncoder.encode(value), headers: headers)
    }

    static func png(_ canvas: Canvas) throws -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "image/png", body: try PNGCodec.encode(canvas))
    }

    /// A content hash of a file (its bytes), or of nothing when it is missing.
    static func fingerprint(_ url: URL) -> String {
        EntityTag.of(bytes: (try? Data(contentsOf: url)) ?? Data())
    }
}
