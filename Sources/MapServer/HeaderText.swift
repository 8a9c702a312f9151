/// Header values read without bridging them to Foundation's NSString (every request reads a few of them).
enum HeaderText {
    /// `text` without the whitespace `CharacterSet.whitespaces` names (Unicode's space separators, tab, and zero width
    /// space as Foundation on Linux has it) at either end: the text `trimmingCharacters(in: .whitespaces)` gives.
    static func trimmingWhitespace(_ text: Substring) -> Substring {
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }), let last = scalars.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return Substring(scalars[first...last])
    }
}
