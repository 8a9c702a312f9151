import Foundation

/// A JSON decoding failure in the words of the data: the dotted path of the field at fault (`friends[2].lat`) and
/// what was wrong ("expected a number", "required field is missing", "a number is too large"). The one place
/// every loader of JSON data translates Foundation's `DecodingError`.
public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String

    /// `data`, when given, tells a number that does not fit its field (valid JSON that Foundation reports as
    /// invalid) from malformed JSON.
    public init(_ error: any Error, data: Data? = nil) {
        guard let decoding = error as? DecodingError else {
            path = ""
            message = "\(error)"
            return
        }
        switch decoding {
        case .keyNotFound(let key, let context):
            (path, message) = (Self.dotted(context.codingPath + [key]), "required field is missing")
        case .typeMismatch(let type, let context):
            (path, message) = (Self.dotted(context.codingPath), "expected \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            (path, message) = (Self.dotted(context.codingPath), "expected \(Self.describe(type)), found null")
        case .dataCorrupted(let context):
            let underlying = ((context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
            let parses = data.map { (try? JSONSerialization.jsonObject(with: $0, options: [.fragmentsAllowed])) != nil } ?? false
            let tooLarge = underlying.contains("representable") || context.debugDescription.contains("representable") || parses
            path = Self.dotted(context.codingPath)
            if tooLarge {
                message = "a number is too large for its field (the JSON itself is well formed)" + (underlying.isEmpty ? "" : ": \(underlying)")
            } else {
                message = context.codingPath.isEmpty ? "malformed JSON" + (underlying.isEmpty ? "" : ": \(underlying)") : context.debugDescription
            }
        @unknown default:
            (path, message) = ("", "\(decoding)")
        }
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// `friends[2].lat` from a coding path.
    public static func dotted(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : "." + key.stringValue }
        }
        return text
    }

    /// What a value of `type` is, in the data's words: "a number", "a string", "true or false", "an array", "an object".
    public static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type, is Float.Type, is UInt64.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default: return "\(type)".lowercased().contains("array") ? "an array" : "an object"
        }
    }
}
