import Foundation
import GeoCore

/// Entity tags derived from a request's inputs (FNV-1a, 64 bits), so a client's copy can be confirmed with
/// 304 without rendering.
enum EntityTag {
    static func of(_ parts: [String]) -> String {
        of(bytes: Array(parts.joined(separator: "\u{1F}").utf8))
    }

    /// The tag of some bytes (an answer's body, a file).
    static func of<Bytes: Sequence>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        "\"" + String(FNV1a.hash(bytes), radix: 16) + "\""
    }

    /// Whether an If-None-Match header names `tag` (or is `*`).
    static func matches(_ header: String?, _ tag: String) -> Bool {
        guard let header else { return false }
        if header == tag { return true }
        return header.split(separator: ",").contains { candidate in
            let trimmed = HeaderText.trimmingWhitespace(candidate)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }
}
