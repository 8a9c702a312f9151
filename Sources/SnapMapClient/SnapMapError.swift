import Foundation

/// What a snapmap server refused or failed, typed by its status, carrying the `field` or `parameter` it named.
public enum SnapMapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 400: a bad body field or query parameter, named as the server named it.
    case badRequest(field: String?, parameter: String?, message: String)
    /// 401: no token, or an unknown or revoked one (the phone signs in again).
    case unauthorized
    /// 404: no such person or friend (an unknown id and a hidden one are alike).
    case notFound(message: String)
    /// 409: the change conflicts with how things stand.
    case conflict(message: String)
    /// 429 after the client's retries: wait `retryAfter` seconds.
    case rateLimited(retryAfter: Double)
    /// 503 after the client's retries: wait `retryAfter` seconds.
    case unavailable(retryAfter: Double)
    /// Any other status, with the server's message.
    case http(status: Int, message: String)
    /// An answer the client could not read as the contract says.
    case malformed(String)

    public var description: String {
        switch self {
        case .badRequest(let field, let parameter, let message):
            return "bad request (\(field.map { "field " + $0 } ?? parameter.map { "parameter " + $0 } ?? "request")): \(message)"
        case .unauthorized: return "sign-in required"
        case .notFound(let message), .conflict(let message): return message
        case .rateLimited(let seconds): return "too many requests: retry after \(seconds) s"
        case .unavailable(let seconds): return "the server is unavailable: retry after \(seconds) s"
        case .http(let status, let message): return "HTTP \(status): \(message)"
        case .malformed(let message): return "malformed answer: \(message)"
        }
    }

    /// The error an answer of `status` with `body` stands for (`retryAfter` from its header).
    static func from(status: Int, body: Data, retryAfter: Double) -> SnapMapError {
        let error = try? JSONDecoder().decode(ErrorBody.self, from: body)
        let message = error?.error ?? String(decoding: body.prefix(200), as: UTF8.self)
        switch status {
        case 400: return .badRequest(field: error?.field, parameter: error?.parameter, message: message)
        case 401: return .unauthorized
        case 404: return .notFound(message: message)
        case 409: return .conflict(message: message)
        case 429: return .rateLimited(retryAfter: retryAfter)
        case 503: return .unavailable(retryAfter: retryAfter)
        default: return .http(status: status, message: message)
        }
    }

    private struct ErrorBody: Decodable {
        let error: String
        let field: String?
        let parameter: String?
    }
}
