import Foundation
import GeoCore

/// A body whose fields are exactly its `CodingKeys`: Swift's own `init(from:)` decodes it once `JSONBody` has refused
/// any other field.
protocol ClosedBody: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

extension ClosedBody {
    static func refuseUnknownFields(_ decoder: any Decoder) throws {
        _ = try JSONBody.fields(decoder, CodingKeys.self)
    }
}

/// How request bodies are read: JSON decoded into a `Decodable` type, every failure one `BadField` in the document
/// that names the field at fault (`audience.ids[2]`, or `body` for the whole), whether malformed JSON, nesting too
/// deep, a missing or wrongly typed field, one not known, or one named twice.
enum JSONBody {
    /// Decodes `body` as `Body` (a `ClosedBody` refusing a field it does not name), translating Foundation's decoding
    /// errors into `BadField`.
    static func decode<Body: Decodable>(_ type: Body.Type, from body: [UInt8]) throws -> Body {
        try refuseDeepNesting(body)
        let decoded: Body
        do {
            decoded = try JSONDecoder().decode(Checked<Body>.self, from: Data(body)).body
        } catch let error as DecodingError {
            throw invalid(error)
        }
        try refuseRepeatedKeys(body)
        return decoded
    }

    private struct Checked<Body: Decodable>: Decodable {
        let body: Body

        init(from decoder: any Decoder) throws {
            try (Body.self as? any ClosedBody.Type)?.refuseUnknownFields(decoder)
            body = try Body(from: decoder)
        }
    }

    /// The object `decoder` is at, after refusing a field `Key` does not list (the first one in sorted order).
    static func fields<Key: CodingKey & CaseIterable>(_ decoder: any Decoder, _ keys: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let allowed = Key.allCases.map(\.stringValue)
        let names = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = names.sorted().first(where: { !allowed.contains($0) }) {
            let prefix = decoder.codingPath.isEmpty ? "" : DecodingFailure.dotted(decoder.codingPath) + "."
            throw invalid(prefix + String(unknown.prefix(40)), "unknown field; allowed: \(allowed.joined(separator: ", "))")
        }
        return try decoder.container(keyedBy: keys)
    }

    /// A body's `field` refused for `message`: a field of the document, which an answer names as `field`.
    static func invalid(_ field: String, _ message: String) -> BadField {
        BadField(field: field, message: message, in: .document)
    }

    private static func invalid(_ error: DecodingError) -> BadField {
        let (path, message): ([any CodingKey], String)
        switch error {
        case .keyNotFound(let key, let context):
            (path, message) = (context.codingPath + [key], "is required")
        case .valueNotFound(let type, let context):
            let inArray = context.codingPath.last?.intValue != nil
            (path, message) = (context.codingPath, inArray ? "must be \(DecodingFailure.describe(type))" : "is required")
        case .typeMismatch(let type, let context):
            (path, message) = (context.codingPath, context.codingPath.isEmpty ? "must be a JSON object" : "must be \(DecodingFailure.describe(type))")
        case .dataCorrupted(let context):
            (path, message) = (context.codingPath, context.codingPath.isEmpty ? "must be a JSON object (malformed JSON)" : context.debugDescription)
        @unknown default:
            (path, message) = ([], "must be a JSON object")
        }
        return invalid(path.isEmpty ? "body" : DecodingFailure.dotted(path), message)
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
