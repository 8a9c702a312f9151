import Foundation
import Testing
@testable import MapServer

/// The per-request parsing written without Foundation's bridged string calls gives what those calls give.
@Suite("Request parsing")
struct RequestParsingTests {
    /// Every scalar to U+30FF (past the last space separator) and the BMP's last block around a token-like text, and
    /// the space separators and a few others also alone, doubled and inside: trimmed as Foundation trims them.
    @Test func bearerTrimmingMatchesFoundation() {
        let token = String(repeating: "ab12", count: 16)
        for pad in (Array(0...0x30FF) + Array(0xFE00...0xFFFF)).compactMap({ Unicode.Scalar(UInt32($0)) }).map(String.init) {
            let text = pad + token + pad
            #expect(String(HeaderText.trimmingWhitespace(Substring(text))) == text.trimmingCharacters(in: .whitespaces), "\(pad.unicodeScalars.first!.value)")
        }
        let spaces = (UInt32(0)...0x3000).compactMap { Unicode.Scalar($0) }.filter { $0.properties.generalCategory == .spaceSeparator }.map(String.init)
        #expect(spaces.count >= 17, "Unicode's space separators were found: \(spaces.count)")
        for pad in spaces + ["\t", "\n", "\u{200B}", "\u{FEFF}", "x", "é", "\u{1F600}"] {
            for text in [pad + token, token + pad, pad + pad + token + pad, token + pad + token, pad, pad + pad, ""] {
                #expect(String(HeaderText.trimmingWhitespace(Substring(text))) == text.trimmingCharacters(in: .whitespaces),
                        "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
    }

    /// An If-None-Match header names a tag exactly when some listed entity tag (weak or strong, or `*`) is it.
    @Test func ifNoneMatchNamesTheTag() {
        let tag = "\"9f3a\""
        #expect(EntityTag.matches(tag, tag) && EntityTag.matches("W/\(tag)", tag) && EntityTag.matches("*", tag))
        #expect(EntityTag.matches("\"1\", \(tag)", tag) && EntityTag.matches(" \(tag) ,\"2\"", tag))
        #expect(!EntityTag.matches(nil, tag) && !EntityTag.matches("\"9f3\"", tag) && !EntityTag.matches("9f3a", tag) && !EntityTag.matches("", tag))
    }
}
