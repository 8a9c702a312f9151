import Foundation

/// The web viewer's files (`Data/web`), Leaflet from Debian's `libjs-leaflet` and MapLibre GL JS from the PyPI
/// wheel `maplibre` (its two files), served by name from a fixed list of directories: no path from a request
/// reaches the file system unchecked.
struct StaticFiles: Sendable {
    static let leafletDirectory = URL(fileURLWithPath: "/usr/share/javascript/leaflet")
    static let mapLibreFiles: Set<String> = ["maplibre-gl.js", "maplibre-gl.css"]
    static let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
                        "png": "image/png", "svg": "image/svg+xml"]

    /// The pages' policy: scripts, styles and connections from this server only, no inline script or style, no
    /// plugin, frame or form target; MapLibre's workers are `blob:` URLs and it decodes images from `data:` and `blob:`.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
        + "worker-src blob:; child-src blob:; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Headers of a file of `type`: every page carries the policy and sends no Referer; no file is sniffed as another type.
    static func headers(for type: String) -> [(String, String)] {
        [("X-Content-Type-Options", "nosniff")]
            + (type.hasPrefix("text/html") ? [("Content-Security-Policy", contentSecurityPolicy), ("Referrer-Policy", "no-referrer")] : [])
    }

    let webDirectory: URL
    /// `maplibre/srcjs` of the wheel, when installed.
    let mapLibreDirectory: URL?

    init(webDirectory: URL, mapLibreDirectory: URL? = nil) {
        self.webDirectory = webDirectory
        self.mapLibreDirectory = mapLibreDirectory
    }

    /// Where the set-up installs the `maplibre` wheel: the virtual environment `.build/python` of the checkout
    /// that holds the data directory (`$SNAPMAP_MAPLIBRE` overrides it).
    static func mapLibreDirectory(dataDirectory: URL) -> URL? {
        if let explicit = ProcessInfo.processInfo.environment["SNAPMAP_MAPLIBRE"] { return URL(fileURLWithPath: explicit) }
        let lib = dataDirectory.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(".build/python/lib")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []).filter { $0.hasPrefix("python3") }.sorted()
        return versions.last.map { lib.appendingPathComponent($0).appendingPathComponent("site-packages/maplibre/srcjs") }
    }

    /// The file for a request path, or nil when the path is not one the server shows.
    func file(for path: String) -> (url: URL, type: String)? {
        let (directory, name): (URL, String)
        switch path {
        case "/": (directory, name) = (webDirectory, "index.html")
        case _ where path.hasPrefix("/leaflet/images/"): (directory, name) = (Self.leafletDirectory.appendingPathComponent("images"), String(path.dropFirst(16)))
        case _ where path.hasPrefix("/leaflet/"): (directory, name) = (Self.leafletDirectory, String(path.dropFirst(9)))
        case _ where path.hasPrefix("/maplibre/"):
            guard let mapLibreDirectory, Self.mapLibreFiles.contains(String(path.dropFirst(10))) else { return nil }
            (directory, name) = (mapLibreDirectory, String(path.dropFirst(10)))
        case _ where path.hasPrefix("/static/"): (directory, name) = (webDirectory, String(path.dropFirst(8)))
        case _ where path.hasSuffix(".html") && !path.dropFirst().contains("/"): (directory, name) = (webDirectory, String(path.dropFirst()))
        default: return nil
        }
        guard Self.isPlainName(name), let type = Self.types[(name as NSString).pathExtension] else { return nil }
        let url = directory.appendingPathComponent(name)
        return FileManager.default.isReadableFile(atPath: url.path) ? (url, type) : nil
    }

    /// A Host header safe to echo into a URL: a name or address and an optional port.
    static func isHost(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 255 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) }
    }

    /// Letters, digits, dots, dashes and underscores only, not starting with a dot.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && !name.hasPrefix(".")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
    }
}
