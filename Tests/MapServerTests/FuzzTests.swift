import Foundation
import ServerTestSupport
import GeoCore
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Random and mutated requests to a running server and random argument lists to the command line, seeded and
/// bounded: nothing crashes, every answer is a well-formed status with a JSON error body when it is an error,
/// and the server still answers `/healthz` afterwards. (The event stream, which never ends, is tested elsewhere.)
@Suite("Fuzzing the server and the command line", .serialized)
struct FuzzTests {
    static let paths = ["/healthz", "/tiles.json", "/tiles/15/9652/12319.png", "/tiles/15/9652/12319@2x.png", "/heat/15/9652/12319.png",
                        "/v1/me/layout.json", "/v1/me/frame.png", "/v1/me/hit", "/v1/me/zoom", "/v1/me/location", "/v1/me/sharing",
                        "/v1/me/friends", "/v1/me/friends/jordan", "/v1/me/blocks/jordan", "/v1/me/snaps",
                        "/v1/route/frame.png", "/v1/route/state.json", "/", "/static/viewer.js", "/leaflet.html", "/nothing",
                        "/tiles/15/9652/12319.mvt", "/vector.json", "/styles/snapmap.json", "/fonts/Inter%20Bold/0-255.pbf", "/maplibre.html"]
    static let names = ["center", "zoom", "size", "scale", "selected", "at", "friend", "card-height", "layers", "route", "progress",
                        "sheet", "margin", "last-meters", "clock", "now", "x"]
    static let values = ["40.716,-73.96", "14.5", "393x852", "1", "3", "jordan", "rae", "10,10", "1e308,1e308", "NaN", "-inf", "0",
                         "-1", "99999999999999999999", "base,heat,pins", "clouds", "lucias", "0.5", "", "%00", "a%1Eb", String(repeating: "z", count: 300),
                         "8000x8000", "0.0001", "group-maya", "arc:40.7,-73.9", "🗺️", "../../etc/passwd"]
    static let bodies = ["{\"lat\": 40.7, \"lon\": -73.9, \"accuracyMeters\": 5}", "{", "[]", "null", "{\"ghost\": \"3h\"}", "{\"lat\": 1e999}",
                         "{\"audience\": {\"mode\": \"only\", \"ids\": [1, 2]}}", String(repeating: "[", count: 5000), "\u{0}\u{1}\u{2}", ""]

    /// The statuses the API answers with; 500 (an internal error) is not among them: no request may cause one.
    static let statuses: Set<Int> = [200, 204, 304, 400, 401, 404, 405, 409, 413, 414, 421, 429, 431, 503]

    @Test func randomRequestsGetWellFormedAnswers() async throws {
        let server = try ServerFixture()
        var random = SplitMix64(seed: 20261130)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let methods = ["GET", "GET", "GET", "HEAD", "PUT", "POST", "DELETE", "PATCH", "OPTIONS"]
        for round in 0..<400 {
            var path = pick(Self.paths)
            if random.next() % 5 == 0 { path += "/" + String((0..<Int(random.next() % 12)).map { _ in pick(Array("az09%.-_~{}")) }) }
            let query = (0..<Int(random.next() % 6)).map { _ in "\(pick(Self.names))=\(pick(Self.values).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            let method = pick(methods)
            let body = method == "PUT" || method == "POST" ? Data(pick(Self.bodies).utf8) : nil
            let token = random.next() % 4 == 0 ? "" : (random.next() % 5 == 0 ? String(repeating: "f", count: 64) : server.token)
            let (status, headers, data) = try await server.fetch(path + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), method: method,
                                                                 headers: random.next() % 6 == 0 ? ["If-None-Match": "\"\(round)\", *"] : [:], body: body, token: token)
            #expect(Self.statuses.contains(status), "\(method) \(path)?\(query): \(status)")
            if status >= 400 && method != "HEAD" {
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                #expect(json?["error"] is String && headers["content-type"] == "application/json", "\(method) \(path)?\(query): \(status)")
            }
        }
        #expect(try await server.fetch("/healthz").0 == 200, "still serving")
    }

    @Test func randomCommandLinesExitZeroOneOrTwo() throws {
        var random = SplitMix64(seed: 7)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let commands = ["layout", "hit", "zoom", "project", "tiles-for", "route-state", "sharing", "locate", "users", "friends", "snaps", "nonsense"]
        let options = ["--center", "--zoom", "--size", "--scale", "--at", "--friend", "--selected", "--clock", "--route", "--progress",
                       "--coord", "--bbox", "--ghost", "--audience", "--viewer", "--bogus", "--help"]
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-fuzz-\(UUID().uuidString)/live.db").path
        for _ in 0..<60 {
            var arguments = [pick(commands)]
            for _ in 0..<Int(random.next() % 5) {
                arguments.append(pick(options))
                if random.next() % 4 != 0 { arguments.append(pick(Self.values)) }
            }
            if random.next() % 3 == 0 { arguments.append(pick(["list", "jordan", "add", "import", "13/2412/3080"])) }
            let result = try Snapmap.run(arguments, environment: ["SNAPMAP_DB": database])
            #expect(result.exited && [0, 1, 2].contains(result.status), "\(arguments)")
            if result.status != 0 { #expect(result.stdout.isEmpty, "nothing on standard output when \(arguments) fails") }
        }
    }
}
