import Foundation

/// The one rule for text a person writes that others read (a display name, the place on a fix): normalised to
/// NFC, 1 to 64 characters and at most 256 bytes of UTF-8, not blank, and free of every character that can
/// hide, reorder or split what is shown: controls (C0, DEL, C1 with U+0085), bidi embeddings, overrides, isolates
/// and marks, other invisible format characters (zero-width joiner and non-joiner excepted: emoji and scripts such
/// as Persian need them), line and paragraph separators (U+2028, U+2029) and noncharacters.
/// Markup characters (`<`, `>`, `&`) are allowed: names like "<3 Sam" are real, and every output escapes them
/// (pages write people's text with `textContent`, JSON is JSON, frames draw glyphs).
public enum PersonText {
    public static let length = 1...64
    public static let maxUTF8Bytes = 256

    /// `text` in NFC when it keeps the rule; otherwise an error naming `field`, the rule and what broke it.
    public static func checked(_ text: String, field: String) throws(LiveMapError) -> String {
        let normal = text.precomposedStringWithCanonicalMapping
        guard length.contains(normal.count), normal.utf8.count <= maxUTF8Bytes else {
            throw .invalid(field: field, message: "must be \(length.lowerBound) to \(length.upperBound) characters and at most \(maxUTF8Bytes) "
                           + "bytes of UTF-8; got \(normal.count) characters, \(normal.utf8.count) bytes")
        }
        guard normal.unicodeScalars.contains(where: Self.isVisible) else {
            throw .invalid(field: field, message: "must not be blank: it needs a letter, digit, mark of punctuation or symbol that shows")
        }
        for (offset, scalar) in normal.unicodeScalars.enumerated() {
            if let kind = refusal(scalar) {
                let code = String(scalar.value, radix: 16, uppercase: true)
                throw .invalid(field: field, message: "must not contain control, bidi, invisible format, line or paragraph separator characters; "
                               + "found U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) (\(kind)) at code point \(offset + 1)")
            }
        }
        return normal
    }

    /// What kind of refused character `scalar` is, or nil when the rule allows it.
    public static func refusal(_ scalar: Unicode.Scalar) -> String? {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control: return "a control character"
        case .lineSeparator: return "a line separator"
        case .paragraphSeparator: return "a paragraph separator"
        case .format where scalar == "\u{200D}" || scalar == "\u{200C}": return nil
        case .format: return properties.isBidiControl ? "a bidi control" : "an invisible format character"
        case .unassigned where properties.isNoncharacterCodePoint: return "a noncharacter"
        default: return nil
        }
    }

    /// Scalars that draw as nothing though they are not spaces: Hangul fillers, the blank braille pattern, the
    /// combining grapheme joiner.
    static let invisible: Set<Unicode.Scalar> = ["\u{115F}", "\u{1160}", "\u{3164}", "\u{FFA0}", "\u{2800}", "\u{034F}"]

    /// Whether a scalar shows on its own: a letter, digit, punctuation or symbol, not one of `invisible`.
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        guard !invisible.contains(scalar) else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber,
             .otherNumber, .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }
}
