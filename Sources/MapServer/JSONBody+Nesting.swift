extension JSONBody {
    /// How deep a body may nest arrays and objects: every body the API takes is at most three deep.
    static let maximumDepth = 32

    /// Refuses, before any JSON reader sees it, a body that nests arrays and objects deeper than `maximumDepth`
    /// (strings skipped, escapes and all). Foundation's reader stopped the whole server on a body that reached its own
    /// limit, 512, at its last byte (`[` 513 times): any signed-in person could send it.
    static func refuseDeepNesting(_ body: [UInt8]) throws {
        var (depth, at) = (0, 0)
        while at < body.count {
            switch body[at] {
            case UInt8(ascii: "\""):
                at += 1
                while at < body.count, body[at] != UInt8(ascii: "\"") { at += body[at] == UInt8(ascii: "\\") ? 2 : 1 }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= maximumDepth else { throw invalid("body", "nests arrays and objects more than \(maximumDepth) deep") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            default:
                break
            }
            at += 1
        }
    }
}
