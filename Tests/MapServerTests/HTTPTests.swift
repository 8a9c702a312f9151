import Foundation
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("snapmap serve over HTTP", .serialized)
struct HTTPTests {
    private var server: ServerFixture { get throws { try ServerFixture.shared.get() } }

    private func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(arguments: [
        ("/healthz", "application/json"), ("/tiles.json", "application/json"), ("/tiles/14/4826/6157.png", "image/png"),
        ("/tiles/14/4826/6157@2x.png", "image/png"), ("/heat/15/9652/12314.png", "image/png"),
        ("/v1/me/frame.png?scale=1", "image/png"), ("/v1/me/layout.json", "application/json"),
        ("/v1/me/hit?at=10,10", "application/json"), ("/v1/me/zoom?friend=jordan", "application/json"),
        ("/v1/route/frame.png?route=lucias&scale=1", "image/png"), ("/v1/route/state.json?route=sakura&progress=0.5", "application/json"),
        ("/", "text/html; charset=utf-8"), ("/leaflet.html", "text/html; charset=utf-8"), ("/static/viewer.js", "text/javascript; charset=utf-8"),
        ("/leaflet/leaflet.js", "text/javascript; charset=utf-8"),
    ])
    func everyEndpointAnswersWithTypeAndLength(path: String, type: String) async throws {
        // The shared server's clock runs: a minute or a glow epoch may turn between GET and HEAD and change a frame,
        // so the pair is asked again (a few times at most) until both carry the same tag.
        for attempt in 1...3 {
            let (status, headers, body) = try await server.fetch(path)
            #expect(status == 200, "\(path)")
            #expect(headers["content-type"] == type)
            #expect(headers["content-length"] == String(body.count) && !body.isEmpty)
            if type == "image/png" { #expect(body.starts(with: [0x89, 0x50, 0x4E, 0x47])) }
            let (headStatus, headHeaders, headBody) = try await server.fetch(path, method: "HEAD")
            if attempt < 3, headers["etag"] != nil, headHeaders["etag"] != headers["etag"] { continue }
            #expect(headStatus == 200 && headBody.isEmpty && headHeaders["content-length"] == String(body.count), "HEAD \(path)")
            return
        }
    }

    @Test func tilesCarryETagsAndCacheControlAndRevalidateWith304() async throws {
        let (_, headers, _) = try await server.fetch("/tiles/15/9652/12314.png")
        let tag = try #require(headers["etag"])
        #expect(headers["cache-control"]?.contains("max-age=86400") == true)
        let (status, again, body) = try await server.fetch("/tiles/15/9652/12314.png", headers: ["If-None-Match": tag])
        #expect(status == 304 && body.isEmpty && again["etag"] == tag)
        let (frameStatus, frameHeaders, frameBody) = try await server.fetch("/v1/me/layout.json")
        let frameTag = try #require(frameHeaders["etag"])
        #expect(frameStatus == 200)
        let (revalidated, _, newBody) = try await server.fetch("/v1/me/layout.json", headers: ["If-None-Match": frameTag])
        if revalidated != 304 {
            // Only the clock's next minute (the labels' "2m" and the answer's `now`) may make a new answer in between.
            let (newMinute, oldMinute) = (try json(newBody)["now"] as? String, try json(frameBody)["now"] as? String)
            #expect(revalidated == 200 && newMinute != oldMinute, "an unchanged layout revalidates")
        }
        #expect(try await server.fetch("/v1/me/layout.json?zoom=15", headers: ["If-None-Match": frameTag]).0 == 200, "other inputs, other tag")
    }

    @Test func tileJSONDescribesTheTiles() async throws {
        let tilejson = try json(try await server.fetch("/tiles.json").2)
        #expect(tilejson["tilejson"] as? String == "3.0.0")
        #expect((tilejson["tiles"] as? [String])?.first?.hasSuffix("/tiles/{z}/{x}/{y}.png") == true)
        #expect((tilejson["bounds"] as? [Double])?.count == 4 && (tilejson["center"] as? [Double])?.count == 3)
        #expect(tilejson["attribution"] as? String == "© OpenStreetMap contributors, NYC Open Data")
        #expect(tilejson["minzoom"] as? Int == 10 && tilejson["maxzoom"] as? Int == 20)
    }

    @Test(arguments: [
        ("/v1/me/frame.png?zoom=40", "zoom"), ("/v1/me/frame.png?size=9000x9000", "size.width"), ("/v1/me/frame.png?center=95,0", "center.lat"),
        ("/v1/me/frame.png?scale=4&size=8000x8000", "size"), ("/v1/me/hit?at=abc", "at"), ("/v1/me/hit?at=1e308,1e308", "at"), ("/v1/me/hit?at=-1e308,5", "at"), ("/v1/me/hit?at=3e20,3e20", "at"), ("/v1/me/layout.json?zoom=nan", "zoom"),
        ("/v1/me/layout.json?selected=rae", "selected"), ("/v1/me/zoom?friend=jordan&card-height=793", "card-height"),
        ("/v1/me/zoom?friend=group-maya&card-height=-1", "card-height"), ("/v1/me/frame.png?layers=clouds", "layers"), ("/tiles/25/1/1.png", "tile"),
        ("/v1/route/state.json?route=lucias&progress=2", "progress"), ("/v1/route/frame.png?route=nowhere", "route"),
        ("/v1/route/frame.png?route=lucias&sheet=0.95", "sheet"), ("/v1/route/frame.png?route=lucias&size=1x1", "size"),
        ("/v1/me/zoom?friend=jordan&size=120x200", "size"), ("/v1/me/fly.png?friend=jordan&size=120x200&scale=1", "size"),
    ])
    func badParametersAre400JSONNamingTheParameter(path: String, parameter: String) async throws {
        let (status, headers, body) = try await server.fetch(path)
        #expect(status == 400, "\(path)")
        #expect(headers["content-type"] == "application/json")
        let error = try json(body)
        let message = error["error"] as? String ?? ""
        #expect(message.contains(parameter), "\(error)")
        // The query parameter itself (`size` for a message about `size.width`), not a part of it or another.
        #expect(error["parameter"] as? String == parameter.split(separator: ".").first.map(String.init), "\(error) names the parameter")
        #expect(!String(decoding: body, as: UTF8.self).contains("Rae"))
    }

    @Test func unknownPathsAndMethodsAreJSONErrors() async throws {
        let (missing, headers, body) = try await server.fetch("/no/such/thing")
        let error = try json(body)
        #expect(missing == 404 && headers["content-type"] == "application/json" && error["error"] != nil)
        let (method, methodHeaders, _) = try await server.fetch("/healthz", method: "DELETE")
        #expect(method == 405 && methodHeaders["allow"] == "GET, HEAD")
        let (meMethod, meHeaders, _) = try await server.fetch("/v1/me/location", method: "GET")
        #expect(meMethod == 405 && meHeaders["allow"] == "PUT")
        #expect(try await server.fetch("/static/../../etc/passwd").0 == 404)
        #expect(try await server.fetch("/healthz").0 == 200, "still serving")
    }

    @Test func twoHundredConcurrentRequestsAreAllAnsweredCorrectly() async throws {
        let server = try self.server
        let expected = try await server.fetch("/tiles/15/9651/12313.png").2
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<200 {
                group.addTask {
                    switch index % 4 {
                    case 0: let r = try await server.fetch("/tiles/15/9651/12313.png"); return (r.0, r.2 == expected)
                    case 1: let r = try await server.fetch("/healthz"); return (r.0, !r.2.isEmpty)
                    case 2: let r = try await server.fetch("/v1/me/hit?at=\(index),\(index * 2)"); return (r.0, !r.2.isEmpty)
                    default: let r = try await server.fetch("/v1/me/frame.png?zoom=25"); return (r.0 == 400 ? 200 : r.0, r.0 == 400)
                    }
                }
            }
            var all: [(Int, Bool)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 200)
        #expect(results.allSatisfy { $0.0 == 200 && $0.1 })
    }
}
