import Foundation
@testable import MapServer
import ServerTestSupport
import Testing

/// `Data/api/openapi.json`, the API contract, read as plain JSON.
struct Contract {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let file = root.appendingPathComponent("Data/api/openapi.json")
    static let methods = ["get", "head", "post", "put", "delete", "patch", "options"]

    let document: [String: Any]

    init() throws {
        document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: Any])
    }

    var paths: [String: [String: Any]] { document["paths"] as? [String: [String: Any]] ?? [:] }

    /// "METHOD /template" of every operation, each GET with its HEAD (the document's rule), except the event stream's.
    var routes: Set<String> {
        var routes = Set<String>()
        for (path, item) in paths {
            for method in item.keys where Self.methods.contains(method) {
                routes.insert(method.uppercased() + " " + path)
                if method == "get" && path != "/v1/me/events" { routes.insert("HEAD " + path) }
            }
        }
        return routes
    }

    /// The documented path a concrete path is an instance of (`{name}` stands for part of one segment): the literal
    /// path when there is one, else the longest template it matches (`{y}@2x.png` before `{y}.png`).
    func template(of path: String) -> String? {
        if paths[path] != nil { return path }
        return paths.keys.filter { path.range(of: Self.pattern($0), options: .regularExpression) != nil }.max { $0.count < $1.count }
    }

    static func pattern(_ template: String) -> String {
        var pattern = "^"
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open])) + "[^/]+"
            rest = rest[rest.index(after: close)...]
        }
        return pattern + NSRegularExpression.escapedPattern(for: String(rest)) + "$"
    }
}

@Suite("The API contract and the server agree", .serialized)
struct ContractTests {
    /// A value for each path parameter that names something the server has.
    static let samples = ["z": "14", "x": "4826", "y": "6157", "id": "jordan", "fontstack": "Inter Bold", "range": "0-255", "page": "leaflet"]
    static let files = ["/static/{file}": "viewer.js", "/leaflet/{file}": "leaflet.js", "/leaflet/images/{file}": "marker-icon.png",
                        "/maplibre/{file}": "maplibre-gl.js"]

    static func instance(_ template: String) -> String {
        var path = files[template].map { template.replacingOccurrences(of: "{file}", with: $0) } ?? template
        for (name, value) in samples { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
        return path.replacingOccurrences(of: " ", with: "%20")
    }

    /// A route-level 404 (the server has no such path), as opposed to a 404 about a person or a file's content.
    static func isNoSuchResource(_ status: Int, _ body: Data) -> Bool {
        status == 404 && String(decoding: body, as: UTF8.self).contains("no such resource")
    }

    @Test func theServerAnswersEveryDocumentedRouteAndNoOtherMethodOnThem() async throws {
        let contract = try Contract()
        let server = try ServerFixture()
        let spare = try server.operate("users", "token", "jordan")
        for (template, item) in contract.paths.sorted(by: { $0.key < $1.key }) {
            let path = Self.instance(template)
            #expect(contract.template(of: path) == template, "\(path) is an instance of \(template)")
            let documented = Set(Contract.methods.filter { contract.routes.contains($0.uppercased() + " " + template) }.map { $0.uppercased() })
            #expect(!documented.isEmpty && item.keys.allSatisfy { Contract.methods.contains($0) || $0 == "parameters" })
            for method in Contract.methods.map({ $0.uppercased() }) {
                // The stream never ends by itself, and the two deletions end the session they are sent with: each
                // is asked with Jordan's spare token, the account's deletion last of all (below).
                if template == "/v1/me/events" && method == "GET" || template == "/v1/me" && method == "DELETE" { continue }
                let token = template == "/v1/me/session" && method == "DELETE" ? spare : template == "/v1/me" ? server.token : nil
                let (status, headers, body) = try await server.fetch(path, method: method, token: token)
                if documented.contains(method) {
                    #expect(status != 405 && !Self.isNoSuchResource(status, body), "\(method) \(path): \(status)")
                } else {
                    #expect(status == 405, "\(method) \(path) is not documented, so it is 405, not \(status)")
                    let allowed = Set((headers["allow"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    #expect(allowed == documented, "Allow of \(path)")
                }
            }
        }
        let (status, _, _) = try await server.fetch("/v1/me", method: "DELETE", token: try server.operate("users", "token", "jordan"))
        #expect(status == 204)
    }

    @Test func theSignedInRoutesAreTheServersOwnTable() throws {
        let contract = try Contract()
        var documented: [String: Set<String>] = [:]
        for route in contract.routes {
            let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts[1].hasPrefix("/v1/me/") else { continue }
            documented[String(parts[1].dropFirst(7)), default: []].insert(parts[0])
        }
        let served = MapAPI.meRoutes.mapValues { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
        #expect(documented == served)
    }

    @Test func everyURLTheServerHandsOutIsDocumented() async throws {
        let contract = try Contract()
        let server = try ServerFixture.shared.get()
        var handedOut: Set<String> = []
        for page in ["/", "/leaflet.html", "/maplibre.html"] {
            let html = String(decoding: try await server.fetch(page).2, as: UTF8.self)
            let links = try NSRegularExpression(pattern: "(?:src|href)=\"(/[^\"#?]*)")
            for match in links.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
                handedOut.insert(String(html[Range(match.range(at: 1), in: html)!]))
            }
        }
        for document in ["/tiles.json", "/vector.json"] {
            let json = try #require(try JSONSerialization.jsonObject(with: try await server.fetch(document).2) as? [String: Any])
            for key in ["tiles", "heat"] {
                for url in json[key] as? [String] ?? [] {
                    let afterScheme = try #require(url.range(of: "://")).upperBound
                    handedOut.insert(String(url[afterScheme...].drop { $0 != "/" }))
                }
            }
        }
        let style = try #require(try JSONSerialization.jsonObject(with: try await server.fetch("/styles/snapmap.json").2) as? [String: Any])
        let sources = (style["sources"] as? [String: [String: Any]] ?? [:]).values
        let styleURLs = [style["glyphs"] as? String].compactMap { $0 } + sources.compactMap { $0["url"] as? String } + sources.flatMap { $0["tiles"] as? [String] ?? [] }
        for url in styleURLs {
            let afterScheme = try #require(url.range(of: "://")).upperBound
            handedOut.insert(String(url[afterScheme...].drop { $0 != "/" }))
        }
        #expect(handedOut.count >= 15)
        for path in handedOut {
            let concrete = path.replacingOccurrences(of: "{z}/{x}/{y}", with: "1/0/0").replacingOccurrences(of: "{fontstack}/{range}", with: "Inter Bold/0-255")
            #expect(contract.template(of: concrete) != nil, "\(path) is handed out but not in the contract")
        }
    }

    @Test func theContractIsServedAsItIsKept() async throws {
        let server = try ServerFixture.shared.get()
        let (status, headers, body) = try await server.fetch("/openapi.json")
        #expect(status == 200 && headers["content-type"] == "application/json" && headers["etag"] != nil)
        #expect(body == (try Data(contentsOf: Contract.file)))
        #expect(try Contract().document["openapi"] as? String == "3.1.0")
    }
}
