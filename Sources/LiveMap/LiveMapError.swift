import GeoCore

/// Why the live map refused a change or a question. Each case maps to one HTTP status; the message names the
/// field and what it allows, and a refused change changed nothing.
public enum LiveMapError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A field is malformed or out of its range (400): the project's one error for bad input, carried.
    case invalid(BadField)
    /// No such person, or one the caller may not know about: the two answer alike (404).
    case notFound(id: String)
    /// No live share of the caller's to `id` is running: unknown, blocked, not a friend or none, alike (404).
    case noLiveShare(id: String)
    /// The change conflicts with the current state, such as adding an id that exists (409).
    case conflict(message: String)
    /// The store could not do its job (503: try again).
    case unavailable(message: String)

    public var description: String {
        switch self {
        case .invalid(let bad): return bad.description
        case .notFound(let id): return "no person \"\(id)\" among your friends and requests"
        case .noLiveShare(let id): return "you have no live share with \"\(id)\" running"
        case .conflict(let message): return message
        case .unavailable(let message): return "the live store is unavailable: \(message)"
        }
    }

    /// The field at fault, when there is one.
    public var field: String? {
        if case .invalid(let bad) = self { return bad.field }
        return nil
    }

    /// `field` refused for `message`: a field of a body or file, unless `place` says a parameter (a path's id).
    public static func invalid(field: String, message: String, in place: BadField.Place = .document) -> LiveMapError {
        .invalid(BadField(field: field, message: message, in: place))
    }
}
