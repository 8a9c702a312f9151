import Foundation

/// A request body read once as a JSON object, with typed fields whose errors name the field: malformed JSON, a
/// missing or wrongly typed field, or a field the endpoint does not know.
struct JSONBody {
    struct Invalid: Error, CustomStringConvertible {
        let field: String
        let message: String
        var description: String { "\(field): \(message)" }
    }

    private let fields: [String: Any]
    private let prefix: String

    /// Parses `body`, refusing fields not in `allowed`.
    init(_ body: [UInt8], allowed: [String]) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) else {
            throw Invalid(field: "body", message: "must be a JSON object (malformed JSON)")
        }
        guard let fields = object as? [String: Any] else { throw Invalid(field: "body", message: "must be a JSON object") }
        try self.init(fields: fields, prefix: "", allowed: allowed)
    }

    private init(fields: [String: Any], prefix: String, allowed: [String]) throws {
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw Invalid(field: prefix + String(unknown.prefix(40)), message: "unknown field; allowed: \(allowed.joined(separator: ", "))")
        }
        self.fields = fields
        self.prefix = prefix
    }

    private func invalid(_ name: String, _ message: String) -> Invalid { Invalid(field: prefix + name, message: message) }

    /// A number (not a boolean), or nil when absent.
    func number(_ name: String) throws -> Double? {
        guard let value = fields[name], !(value is NSNull) else { return nil }
        guard let number = value as? NSNumber, !Self.isBoolean(number) else { throw invalid(name, "must be a number") }
        return number.doubleValue
    }

    func requiredNumber(_ name: String) throws -> Double {
        guard let value = try number(name) else { throw invalid(name, "is required") }
        return value
    }

    func string(_ name: String) throws -> String? {
        guard let value = fields[name], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw invalid(name, "must be a string") }
        return text
    }

    func requiredString(_ name: String) throws -> String {
        guard let value = try string(name) else { throw invalid(name, "is required") }
        return value
    }

    /// An array of strings, or nil when absent.
    func strings(_ name: String) throws -> [String]? {
        guard let value = fields[name], !(value is NSNull) else { return nil }
        guard let texts = value as? [Any] else { throw invalid(name, "must be an array of strings") }
        return try texts.enumerated().map { index, item in
            guard let text = item as? String else { throw invalid("\(name)[\(index)]", "must be a string") }
            return text
        }
    }

    /// A nested object with its own allowed fields, or nil when absent.
    func object(_ name: String, allowed: [String]) throws -> JSONBody? {
        guard let value = fields[name], !(value is NSNull) else { return nil }
        guard let object = value as? [String: Any] else { throw invalid(name, "must be an object") }
        return try JSONBody(fields: object, prefix: prefix + name + ".", allowed: allowed)
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" || type(of: number) != NSNumber.self && "\(type(of: number))".contains("Bool")
    }
}
