import Foundation
import MapEngine
import VectorTiles

extension MapAPI {
    /// `/fonts/{fontstack}/{start}-{end}.pbf`: the glyphs MapLibre draws the style's text with (Inter Bold, the
    /// raster map's font); nil when the path is not a glyph path.
    func glyphs(_ request: HTTPRequest) -> HTTPResponse? {
        let path = request.path
        guard path.hasPrefix("/fonts/"), path.hasSuffix(".pbf") else { return nil }
        let parts = path.dropFirst(7).dropLast(4).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let range = GlyphRange(parsing: parts[1]) else {
            return Self.json(400, ["error": "expected /fonts/{fontstack}/{start}-{end}.pbf with start a multiple of 256 up to \(GlyphRange.lastStart) and end start + 255",
                                   "parameter": "range"])
        }
        // MapLibre asks for the stack its layers name, comma-joined; every name is ours or it is not found.
        let names = parts[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty, names.allSatisfy({ $0 == MapLibreStyle.fontStack }) else {
            return Self.json(404, ["error": "no such font stack: \(parts[0].prefix(64)); this server has \(MapLibreStyle.fontStack)"])
        }
        let key = "glyphs/\(range.start)"
        let (engine, tiles, stack) = (self.engine, self.tiles, String(parts[0]))
        return conditional(request, tag: EntityTag.of([Self.code, key, stack]), cacheControl: Self.tileCacheControl) {
            if let cached = tiles.value(key + stack) { return HTTPResponse(status: 200, contentType: "application/x-protobuf", body: cached) }
            return renders.answer { _ in
                let body = range.encoded(font: engine.labelFont, fontStack: stack)
                tiles.store(body, for: key + stack, cost: body.count)
                return HTTPResponse(status: 200, contentType: "application/x-protobuf", body: body)
            }
        }
    }
}
