import Foundation

/// The web viewer's files (`Data/web`) and Leaflet from Debian's `libjs-leaflet`, served by name from a
/// fixed list of directories: no path from a request reaches the file system unchecked.
struct StaticFiles: Sendable {
    static let leafletDirectory = URL(fileURLWithPath: "/usr/share/javascript/leaflet")
    static let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
                        "png": "image/png", "svg": "image/svg+xml"]

    let webDirectory: URL

    /// The file for a request path, or nil when the path is not one the server shows.
    func file(for path: String) -> (url: URL, type: String)? {
        let (directory, name): (URL, String)
        switch path {
        case "/": (directory, name) = (webDirectory, "index.html")
        case _ where path.hasPrefix("/leaflet/images/"): (directory, name) = (Self.leafletDirectory.appendingPathComponent("images"), String(path.dropFirst(16)))
        case _ where path.hasPrefix("/leaflet/"): (directory, name) = (Self.leafletDirectory, String(path.dropFirst(9)))
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
