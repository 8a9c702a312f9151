import Foundation
import Raster

/// Avatar images (PNG files under the data directory), decoded once; a missing or broken file draws initials.
public final class AvatarCache: @unchecked Sendable {
    private let dataDirectory: URL
    private let lock = NSLock()
    private var images: [String: Image?] = [:]

    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// The decoded image at `path` under the data directory; nil for a missing or broken file or one outside it.
    public func image(_ path: String) -> Image? {
        lock.lock()
        defer { lock.unlock() }
        if let known = images[path] { return known }
        let root = dataDirectory.standardizedFileURL.path
        let url = dataDirectory.appendingPathComponent(path).standardizedFileURL
        let image = url.path.hasPrefix(root + "/") ? (try? Data(contentsOf: url)).flatMap { try? PNGCodec.decode([UInt8]($0)) } : nil
        images[path] = image
        return image
    }
}
