/// An input that GeoCore refuses, naming the field and what it allows.
public enum GeoError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A number that must be finite was NaN or infinite.
    case notFinite(field: String)
    /// A number outside its allowed closed range.
    case outOfRange(field: String, value: Double, allowed: ClosedRange<Double>)
    /// A value that is malformed for another reason, with an explanation.
    case invalid(field: String, reason: String)
    /// PROJ refused an operation; carries PROJ's own message.
    case proj(operation: String, message: String)

    public var description: String {
        switch self {
        case .notFinite(let field):
            return "\(field) must be a finite number"
        case .outOfRange(let field, let value, let allowed):
            return "\(field) = \(value) is out of range: allowed \(allowed.lowerBound) … \(allowed.upperBound)"
        case .invalid(let field, let reason):
            return "\(field): \(reason)"
        case .proj(let operation, let message):
            return "PROJ \(operation) failed: \(message)"
        }
    }

    /// What is wrong, without the field's name (for messages that name the field their own way).
    public var reason: String {
        switch self {
        case .notFinite: return "must be a finite number"
        case .outOfRange(_, let value, let allowed): return "\(value) is out of range: allowed \(allowed.lowerBound) … \(allowed.upperBound)"
        case .invalid(_, let reason): return reason
        case .proj: return description
        }
    }

    /// Checks that `value` is finite and inside `allowed`, naming `field` otherwise.
    public static func check(_ value: Double, _ field: String, in allowed: ClosedRange<Double>) throws(GeoError) {
        guard value.isFinite else { throw .notFinite(field: field) }
        guard allowed.contains(value) else { throw .outOfRange(field: field, value: value, allowed: allowed) }
    }
}
