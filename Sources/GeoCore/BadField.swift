/// A value refused for one named field (a request parameter, a command-line option, a field of a data file): names
/// the field and, in `message`, what it allows and what was given. Whoever throws it has changed nothing.
public struct BadField: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field as its writer knows it: `zoom` in a query, `--zoom` on the command line, `speeds.primary` in a file.
    public let field: String
    /// What is wrong, without the field's name: the allowed range or values, and what was given.
    public let message: String
    /// Where the field stands: an HTTP answer names a parameter `parameter` and a body's field `field`.
    public let place: Place

    /// Among named parameters (a query, a path, the command line's options), or in a document (a JSON body).
    public enum Place: Sendable, Equatable {
        case parameter, document
    }

    /// `field` refused for the reason `message` (which names what is allowed).
    public init(field: String, message: String, in place: Place = .parameter) {
        self.field = field
        self.message = message
        self.place = place
    }

    public var description: String { "\(field): \(message)" }

    /// `given` lies outside `allowed` (in `unit`, when there is one).
    public static func outOfRange(_ field: String, given: String, allowed: ClosedRange<Double>, unit: String = "") -> BadField {
        let unit = unit.isEmpty ? "" : " " + unit
        return BadField(field: field, message: "\(given) is out of range: allowed \(allowed.lowerBound) … \(allowed.upperBound)\(unit)")
    }

    /// The number is NaN or infinite where a finite one is needed.
    public static func notFinite(_ field: String) -> BadField { BadField(field: field, message: "must be a finite number") }

    /// Checks that `value` is finite and inside `allowed`, naming `field` otherwise.
    public static func check(_ value: Double, _ field: String, in allowed: ClosedRange<Double>) throws(BadField) {
        guard value.isFinite else { throw .notFinite(field) }
        guard allowed.contains(value) else { throw .outOfRange(field, given: "\(value)", allowed: allowed) }
    }

    /// The field is absent where it is needed.
    public static func required(_ field: String) -> BadField { BadField(field: field, message: "is required") }

    /// The same error under the name its reader writes the field by (`prefix` "--" for an option).
    public func prefixed(_ prefix: String) -> BadField { BadField(field: prefix + field, message: message, in: place) }
}
