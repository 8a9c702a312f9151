import Foundation

/// A request body read as JSON into a `Decodable`, with errors that name the field: malformed JSON, a missing
/// or wrongly typed field, or a field the endpoint does not know.
enum JSONBody {
    struct Invalid: Error, CustomStringConvertible {
        let field: String
        let message: String
        var description: String { "\(field): \(message)" }
    }

    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], allowed: [String]) throws -> T {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) else {
            throw Invalid(field: "body", message: "must be a JSON object (malformed JSON)")
        }
        guard let fields = object as? [String: Any] else { throw Invalid(field: "body", message: "must be a JSON object") }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw Invalid(field: String(unknown.prefix(40)), message: "unknown field; allowed: \(allowed.joined(separator: ", "))")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch let DecodingError.keyNotFound(key, context) {
            throw Invalid(field: path(context.codingPath + [key]), message: "is required")
        } catch let DecodingError.typeMismatch(expected, context) {
            throw Invalid(field: path(context.codingPath), message: "must be \(name(of: expected))")
        } catch let DecodingError.valueNotFound(expected, context) {
            throw Invalid(field: path(context.codingPath), message: "must be \(name(of: expected)), not null")
        } catch let DecodingError.dataCorrupted(context) {
            throw Invalid(field: path(context.codingPath), message: context.debugDescription)
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is Double.Type: return "a number"
        case is String.Type: return "a string"
        case is [String].Type, is [Any].Type: return "an array"
        case is Bool.Type: return "true or false"
        default: return "an object"
        }
    }
}
