import Foundation
import GeoCore
import MapEngine
import PinLayout
import Raster

/// The map as URLs: frames, layouts, taps, selection zooms, tiles, glow tiles, TileJSON, route frames, the
/// web viewer. Every answer is computed from the request alone (and `now`), so an ETag of the inputs lets a
/// client revalidate with 304; bad input is 400 JSON naming the parameter; nothing here can crash the server.
public final class MapAPI: Sendable {
    /// Bytes of encoded tiles kept in memory.
    public static let tileCacheBytes = 256 * 1024 * 1024
    public static let maxQueryParameters = 16
    static let tileCacheControl = "public, max-age=86400"

    let engine: MapEngine
    let files: StaticFiles
    let tiles = ResponseCache(capacityBytes: MapAPI.tileCacheBytes)
    /// Identifies the data and code behind every answer, for ETags.
    let version: String
    let clock: @Sendable () -> Date

    public init(engine: MapEngine, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.engine = engine
        files = StaticFiles(webDirectory: engine.paths.dataDirectory.appendingPathComponent("web"))
        version = EntityTag.of(["snapmap-1", engine.scene.capturedAt.description, String(engine.scene.friends.count)])
        self.clock = clock
    }

    /// Answers one request; errors become JSON with a 4xx or 5xx status.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return Self.json(405, ["error": "method \(request.method) is not allowed; use GET or HEAD"], headers: [("Allow", "GET, HEAD")])
        }
        guard request.query.count <= Self.maxQueryParameters else {
            return Self.json(400, ["error": "too many query parameters: at most \(Self.maxQueryParameters)"])
        }
        do {
            return try route(request)
        } catch let error as BadParameter {
            return Self.json(400, ["error": error.description, "parameter": error.name])
        } catch let error as GeoError {
            return Self.json(400, ["error": error.description])
        } catch let error as RasterError {
            return Self.json(400, ["error": error.description])
        } catch let error as UnknownFriend {
            return Self.json(404, ["error": error.description])
        } catch {
            return Self.json(500, ["error": "\(error)"])
        }
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = RequestParameters(request.query)
        switch request.path {
        case "/healthz":
            return try Self.encoded(Health(status: "ok", friends: engine.scene.friends.count), status: 200)
        case "/tiles.json":
            return try Self.encoded(TileJSON(engine: engine, host: request.host), status: 200, headers: [("Cache-Control", Self.tileCacheControl)])
        case "/v1/frame.png", "/v1/layout.json", "/v1/hit", "/v1/zoom":
            return try scene(request, parameters)
        case "/v1/route/frame.png", "/v1/route/state.json":
            return try routes(request, parameters)
        default:
            if let tile = try TilePath(request.path) { return try self.tile(tile, request) }
            if let file = files.file(for: request.path) {
                return HTTPResponse(status: 200, contentType: file.type, body: [UInt8](try Data(contentsOf: file.url)),
                                    headers: [("Cache-Control", "public, max-age=300")])
            }
            return Self.json(404, ["error": "no such resource: \(request.path)"])
        }
    }

    /// Answers with 304 when the client already has `tag`, else with `make()` tagged.
    func conditional(_ request: HTTPRequest, tag: String, cacheControl: String, _ make: () throws -> HTTPResponse) rethrows -> HTTPResponse {
        let headers = [("ETag", tag), ("Cache-Control", cacheControl)]
        if EntityTag.matches(request.ifNoneMatch, tag) { return HTTPResponse(status: 304, contentType: "application/octet-stream", body: [], headers: headers) }
        var response = try make()
        response.headers += headers
        return response
    }

    struct Health: Encodable {
        let status: String
        let friends: Int
    }

    static func json(_ status: Int, _ body: [String: String], headers: [(String, String)] = []) -> HTTPResponse {
        (try? encoded(body, status: status, headers: headers)) ?? HTTPResponse(status: 500, contentType: "application/json", body: Array("{}".utf8))
    }

    static func encoded<T: Encodable>(_ value: T, status: Int, headers: [(String, String)] = []) throws -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return HTTPResponse(status: status, contentType: "application/json", body: [UInt8](try encoder.encode(value)), headers: headers)
    }

    static func png(_ canvas: Canvas) throws -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "image/png", body: try PNGCodec.encode(canvas))
    }
}
