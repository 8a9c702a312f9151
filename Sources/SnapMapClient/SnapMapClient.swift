import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SnapMapVersion

/// A phone's connection to a snapmap server (`Data/api/openapi.json`): async calls with Codable answers, retries
/// that wait out `Retry-After` on 429 and 503, ETag revalidation of map answers, and typed errors naming the field.
public final class SnapMapClient: Sendable {
    /// This client's version: the server's `/healthz` reports its own, the same for the same release.
    public static let version = SnapMapVersion.current
    /// Answers kept for revalidation (the latest per URL).
    public static let cachedAnswers = 64

    public let baseURL: URL
    /// The bearer token `snapmap users token ID` minted (nil: public endpoints only).
    public let token: String?
    /// How many times a 429 or 503 is retried after its `Retry-After` before it is thrown.
    public let retries: Int
    let session: URLSession
    let cache = AnswerCache(limit: SnapMapClient.cachedAnswers)

    /// A client of the server at `baseURL`, signed in with `token` when given.
    public init(baseURL: URL, token: String? = nil, retries: Int = 3, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.token = token
        self.retries = retries
        self.session = session
    }

    /// One request: the status, the headers (lowercased names) and the body, after the retries 429 and 503 ask for.
    func send(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil,
              headers: [String: String] = [:]) async throws -> (status: Int, headers: [String: String], body: Data) {
        var attempt = 0
        while true {
            let answer = try await sendOnce(method, path, query: query, body: body, headers: headers)
            guard answer.status == 429 || answer.status == 503, attempt < retries else { return answer }
            attempt += 1
            try await Task.sleep(nanoseconds: UInt64(Self.retryAfter(answer.headers) * 1e9))
        }
    }

    func sendOnce(_ method: String, _ path: String, query: [URLQueryItem], body: Data?,
                          headers: [String: String]) async throws -> (status: Int, headers: [String: String], body: Data) {
        var request = URLRequest(url: url(path, query: query))
        request.httpMethod = method
        request.httpBody = body
        request.setValue("snapmap-client/\(Self.version)", forHTTPHeaderField: "User-Agent")
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw SnapMapError.malformed("not an HTTP answer") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return (http.statusCode, fields, data)
    }

    func url(_ path: String, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
        if !query.isEmpty { components.queryItems = query }
        return components.url!
    }

    /// The seconds an answer's `Retry-After` asks for (1 when it names none).
    static func retryAfter(_ headers: [String: String]) -> Double {
        headers["retry-after"].flatMap(Double.init).map { max(0, $0) } ?? 1
    }

    /// The body of a 2xx answer, else the typed error.
    func expectSuccess(_ answer: (status: Int, headers: [String: String], body: Data)) throws -> Data {
        guard (200..<300).contains(answer.status) else {
            throw SnapMapError.from(status: answer.status, body: answer.body, retryAfter: Self.retryAfter(answer.headers))
        }
        return answer.body
    }

    func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try Self.decoder.decode(type, from: data)
        } catch {
            throw SnapMapError.malformed("\(T.self): \(error)")
        }
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ISO8601.date(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 time: \(text)"))
            }
            return date
        }
        return decoder
    }()

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601DateFormatter().string(from: date))
        }
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// A GET that sends the tag of the copy it holds and, on 304, answers that copy.
    func revalidated(_ path: String, query: [URLQueryItem]) async throws -> Revalidated<Data> {
        let key = url(path, query: query).absoluteString
        let held = cache.value(key)
        let answer = try await send("GET", path, query: query, headers: held.map { ["If-None-Match": $0.tag] } ?? [:])
        if answer.status == 304, let held { return Revalidated(value: held.body, tag: held.tag, notModified: true) }
        let body = try expectSuccess(answer)
        if let tag = answer.headers["etag"] { cache.store(key, tag: tag, body: body) }
        return Revalidated(value: body, tag: answer.headers["etag"], notModified: false)
    }
}

/// An answer that may have been revalidated: `notModified` when the server said the copy held is current.
public struct Revalidated<Value: Sendable>: Sendable {
    public let value: Value
    /// The answer's ETag (nil when it has none).
    public let tag: String?
    public let notModified: Bool

    func map<T>(_ transform: (Value) throws -> T) rethrows -> Revalidated<T> {
        Revalidated<T>(value: try transform(value), tag: tag, notModified: notModified)
    }
}

/// The latest tagged body per URL, at most `limit` of them (the oldest stored goes first).
final class AnswerCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: (tag: String, body: Data)] = [:]
    private var order: [String] = []
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func value(_ key: String) -> (tag: String, body: Data)? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    func store(_ key: String, tag: String, body: Data) {
        lock.lock()
        defer { lock.unlock() }
        if entries[key] == nil { order.append(key) }
        entries[key] = (tag, body)
        while order.count > limit { entries[order.removeFirst()] = nil }
    }
}

enum ISO8601 {
    /// An ISO 8601 time with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return ISO8601DateFormatter().date(from: text) ?? fractional.date(from: text)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
