import Foundation
import FoundationNetworking
import MapEngine
import MapScene
import ServerTestSupport
import VectorTiles
import Testing
#if canImport(FoundationNetworking)
#endif

/// Vector tiles, their TileJSON, the MapLibre style and page over HTTP. Requests go through curl, which (unlike
/// URLSession) shows the bytes as sent, gzip included.
@Suite("Vector tiles over HTTP", .serialized)
struct VectorTileHTTPTests {
    private var server: ServerFixture { get throws { try ServerFixture.shared.get() } }
    static let tile = "/tiles/14/4826/6159.mvt"

    /// Status, lower-cased headers and body of a GET through curl.
    private func curl(_ path: String, headers: [String] = []) throws -> (Int, [String: String], [UInt8]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (head, body) = (directory.appendingPathComponent("head"), directory.appendingPathComponent("body"))
        _ = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/curl"),
                                ["-s", "-D", head.path, "-o", body.path] + headers.flatMap { ["-H", $0] } + [try server.base.absoluteString + path])
        let lines = try String(contentsOf: head, encoding: .utf8).split(separator: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, fields, [UInt8]((try? Data(contentsOf: body)) ?? Data()))
    }

    private func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-\(UUID().uuidString).gz")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try TestProcess.run(URL(fileURLWithPath: "/bin/gzip"), ["-dc", file.path])
        #expect(result.succeeded, "gzip reads the body")
        return [UInt8](result.stdout)
    }

    @Test func tilesComeGzippedWhenAcceptedWithATagPerEncoding() throws {
        let server = try server
        let engine = try MapEngine(paths: DataPaths(dataDirectory: server.root.appendingPathComponent("Data")))
        let (plainStatus, plainHeaders, plain) = try curl(Self.tile)
        #expect(plainStatus == 200 && plainHeaders["content-type"] == "application/vnd.mapbox-vector-tile")
        #expect(plainHeaders["content-encoding"] == nil && plainHeaders["vary"] == "Accept-Encoding")
        #expect(plain == VectorTileMaker(engine.baseMap).tile(try .init(z: 14, x: 4826, y: 6159)), "the bytes the engine makes")
        let (status, headers, gzipped) = try curl(Self.tile, headers: ["Accept-Encoding: gzip, deflate"])
        #expect(status == 200 && headers["content-encoding"] == "gzip" && headers["content-type"] == "application/vnd.mapbox-vector-tile")
        let unzipped = try gunzip(gzipped)
        #expect(gzipped.count < plain.count && unzipped == plain)
        let (tag, plainTag) = (try #require(headers["etag"]), try #require(plainHeaders["etag"]))
        #expect(tag != plainTag, "each encoding has its own tag")
        let notModified = try curl(Self.tile, headers: ["Accept-Encoding: gzip", "If-None-Match: \(tag)"])
        #expect(notModified.0 == 304 && notModified.1["vary"] == "Accept-Encoding")
        #expect(try curl(Self.tile, headers: ["If-None-Match: \(tag)"]).0 == 200, "the gzip tag does not match the plain tile")
        #expect(try curl(Self.tile, headers: ["Accept-Encoding: gzip;q=0"]).1["content-encoding"] == nil)
    }

    @Test(arguments: ["/tiles/23/0/0.mvt", "/tiles/14/16384/1.mvt", "/tiles/1/0/0@2x.mvt", "/tiles/a/b/c.mvt", "/heat/14/4826/6159.mvt"])
    func badTilesAreRefusedWithJSON(path: String) throws {
        let (status, headers, body) = try curl(path)
        #expect((400...404).contains(status) && headers["content-type"] == "application/json", "\(path): \(status)")
        #expect(String(decoding: body, as: UTF8.self).contains("error"))
    }

    @Test func tileJSONAndTheStyleDescribeTheLayers() throws {
        let server = try server
        let engine = try MapEngine(paths: DataPaths(dataDirectory: server.root.appendingPathComponent("Data")))
        let tilejson = try #require(try JSONSerialization.jsonObject(with: Data(curl("/vector.json").2)) as? [String: Any])
        #expect((tilejson["tiles"] as? [String])?.first?.hasSuffix("/tiles/{z}/{x}/{y}.mvt") == true)
        let layers = try #require(tilejson["vector_layers"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(layers == ["water", "land", "parks", "streets", "places", "transit"])
        let style = try #require(try JSONSerialization.jsonObject(with: Data(curl("/styles/snapmap.json").2)) as? [String: Any])
        #expect(style["version"] as? Int == 8)
        let sources = try #require(style["sources"] as? [String: [String: Any]])
        #expect((sources["snapmap"]?["url"] as? String)?.hasSuffix("/vector.json") == true && sources["friends"]?["type"] as? String == "geojson")
        #expect((sources["heat"]?["tiles"] as? [String])?.first?.hasSuffix("/heat/{z}/{x}/{y}.png") == true)
        let styleLayers = try #require(style["layers"] as? [[String: Any]])
        #expect(styleLayers.compactMap { $0["source-layer"] as? String }.allSatisfy(layers.contains))
        // One look for both renderers: the raster style's colours, its zooms one less (MapLibre's 512-pixel tiles).
        let paints = Dictionary(uniqueKeysWithValues: styleLayers.map { ($0["id"] as? String ?? "", $0) })
        let look = engine.baseMap.style
        #expect((paints["water"]?["paint"] as? [String: Any])?["fill-color"] as? String == "rgba(\(look.water.r),\(look.water.g),\(look.water.b),1.0)")
        #expect(paints["parks"]?["minzoom"] as? Double == look.parkMinZoom - 1)
        #expect(paints["streets-residential"]?["minzoom"] as? Double == look.street(.residential).minZoom - 1)
        let stations = try #require(look.places)
        #expect(paints["stations"]?["source-layer"] as? String == "transit" && paints["stations"]?["minzoom"] as? Double == stations.stationMark.minZoom - 1)
        #expect(paints["station-names"]?["source-layer"] as? String == "transit"
            && paints["station-names"]?["minzoom"] as? Double == stations.layer(.station).minZoom - 1)
    }

    /// Glyph protobufs read with a minimal wire-format reader: the stack and range named, a glyph for every
    /// printable ASCII character, each bitmap its size plus a 3-pixel border on every side.
    @Test func glyphRangesHoldEveryPrintableASCIICharacter() throws {
        let (status, headers, body) = try curl("/fonts/Inter%20Bold/0-255.pbf")
        #expect(status == 200 && headers["content-type"] == "application/x-protobuf" && headers["etag"] != nil)
        let stacks = WireFields(body).fields.filter { $0.number == 1 }
        #expect(stacks.count == 1)
        let stack = WireFields(stacks.first?.bytes ?? [])
        #expect(stack.text(1) == "Inter Bold" && stack.text(2) == "0-255")
        var ids: Set<UInt64> = []
        for field in stack.fields where field.number == 3 {
            let glyph = WireFields(field.bytes)
            let (width, height) = (glyph.varint(3) ?? 0, glyph.varint(4) ?? 0)
            ids.insert(glyph.varint(1) ?? 0)
            if width > 0 { #expect(UInt64(glyph.bytes(2)?.count ?? 0) == (width + 6) * (height + 6)) }
        }
        #expect(Set((32...126).map(UInt64.init)).isSubset(of: ids))
        #expect(try curl("/fonts/Inter%20Bold/256-300.pbf").0 == 400)
        #expect(try curl("/fonts/Comic%20Sans/0-255.pbf").0 == 404)
    }

    @Test func theMapLibrePageAndItsTwoFilesAreServed() throws {
        #expect(try curl("/maplibre.html").1["content-type"] == "text/html; charset=utf-8")
        let (status, headers, body) = try curl("/maplibre/maplibre-gl.js")
        #expect(status == 200 && headers["content-type"] == "text/javascript; charset=utf-8" && String(decoding: body.prefix(200), as: UTF8.self).contains("MapLibre"))
        #expect(try curl("/maplibre/maplibre-gl.css").0 == 200)
        #expect(try curl("/maplibre/pywidget.js").0 == 404, "only the two MapLibre files")
    }
}

/// The fields of a protobuf message (varints and length-delimited ones, as glyph protobufs have).
struct WireFields {
    struct Field {
        let number: UInt64
        let value: UInt64
        let bytes: [UInt8]
    }

    private(set) var fields: [Field] = []

    init(_ bytes: [UInt8]) {
        var index = 0
        func varint() -> UInt64 {
            var (value, shift) = (UInt64(0), UInt64(0))
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            return value
        }
        while index < bytes.count {
            let key = varint()
            switch key & 7 {
            case 0: fields.append(Field(number: key >> 3, value: varint(), bytes: []))
            case 2:
                let length = Int(varint())
                let end = min(index + length, bytes.count)
                fields.append(Field(number: key >> 3, value: 0, bytes: Array(bytes[index..<end])))
                index = end
            default: return
            }
        }
    }

    func varint(_ number: UInt64) -> UInt64? { fields.first { $0.number == number }?.value }
    func bytes(_ number: UInt64) -> [UInt8]? { fields.first { $0.number == number }?.bytes }
    func text(_ number: UInt64) -> String? { bytes(number).map { String(decoding: $0, as: UTF8.self) } }
}
