import Foundation
import ServerTestSupport
import Testing

@Suite("The pages' Content-Security-Policy")
struct PagePolicyHTTPTests {
    /// Every page of `Data/web` is served with a policy that allows scripts from the server only (no inline script,
    /// no eval) and sends no Referer, and holds no inline script, handler or style that the policy would block.
    @Test func everyPageForbidsInlineScriptAndHasNone() async throws {
        let server = try ServerFixture.shared.get()
        let pages = try FileManager.default.contentsOfDirectory(atPath: server.root.appendingPathComponent("Data/web").path)
            .filter { $0.hasSuffix(".html") }.sorted()
        #expect(pages == ["index.html", "leaflet.html", "maplibre.html"])
        for page in pages {
            let (status, headers, body) = try await server.fetch(page == "index.html" ? "/" : "/\(page)")
            let policy = try #require(headers["content-security-policy"], "\(page) has a policy")
            let directives = Dictionary(policy.split(separator: ";").map { $0.split(separator: " ").map(String.init) }.map { ($0[0], Array($0.dropFirst())) },
                                        uniquingKeysWith: { first, _ in first })
            #expect(status == 200 && directives["script-src"] == ["'self'"] && directives["default-src"] == ["'none'"], "\(page): \(policy)")
            #expect(directives["style-src"] == ["'self'"] && directives["base-uri"] == ["'none'"], "\(page): \(policy)")
            #expect(headers["referrer-policy"] == "no-referrer" && headers["x-content-type-options"] == "nosniff")
            let html = String(decoding: body, as: UTF8.self)
            #expect(html.ranges(of: "<script").count == html.ranges(of: "<script src=\"/").count + html.ranges(of: "<script type=\"module\" src=\"/").count,
                    "\(page): every script is a file of this server")
            #expect(!html.contains("<style") && html.firstMatch(of: /\son[a-z]+\s*=/) == nil && !html.contains("javascript:"), "\(page)")
        }
    }
}
