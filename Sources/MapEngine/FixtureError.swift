import Foundation

/// A fixture or data file that could not be used: names the file and the path of the bad field.
public struct FixtureError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let path: String
    public let message: String

    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String {
        path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
    }

    /// A failure to read or decode a file, as a fixture error naming it.
    public static func describing(_ error: any Error, file: String) -> FixtureError {
        error is DecodingError ? from(error, file: file) : FixtureError(file: file, path: "", message: "cannot read the file")
    }

    /// Translates a decoding failure into the file and the dotted path of the field at fault.
    static func from(_ error: any Error, file: String) -> FixtureError {
        guard let decoding = error as? DecodingError else {
            return FixtureError(file: file, path: "", message: "\(error)")
        }
        switch decoding {
        case .keyNotFound(let key, let context):
            return FixtureError(file: file, path: dotted(context.codingPath + [key]), message: "required field is missing")
        case .typeMismatch(let type, let context):
            return FixtureError(file: file, path: dotted(context.codingPath), message: "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return FixtureError(file: file, path: dotted(context.codingPath), message: "expected \(describe(type)), found null")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let message = context.codingPath.isEmpty ? "malformed JSON\(underlying.map { ": \($0)" } ?? "")" : context.debugDescription
            return FixtureError(file: file, path: dotted(context.codingPath), message: message)
        @unknown default:
            return FixtureError(file: file, path: "", message: "\(decoding)")
        }
    }

    /// `friends[2].lat` from a coding path.
    static func dotted(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default: return "\(type)".lowercased().contains("array") ? "an array" : "an object"
        }
    }
}
