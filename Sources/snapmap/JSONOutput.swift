import Foundation

/// Deterministic JSON for the command line: sorted keys, indented, slashes unescaped.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// One JSON object holding `value`'s fields and `beside`'s: a type as it encodes itself, with what a command derives
/// from it (field names must not clash).
struct Merged<Value: Encodable, Beside: Encodable>: Encodable {
    let value: Value
    let beside: Beside

    func encode(to encoder: Encoder) throws {
        try value.encode(to: encoder)
        try beside.encode(to: encoder)
    }
}
