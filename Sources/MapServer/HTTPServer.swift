import CMicroHTTPD
import Foundation

/// One HTTP request as the map API sees it: method, path, decoded query, the headers it uses and the body.
public struct HTTPRequest: Sendable {
    public let method: String
    public let path: String
    public let query: [String: String]
    public let ifNoneMatch: String?
    /// The Host header, for absolute URLs in answers.
    public let host: String?
    public let authorization: String?
    public let contentType: String?
    /// The client takes gzipped answers (`Accept-Encoding` names gzip or `*` with a non-zero q).
    public let acceptsGzip: Bool
    /// At most the server's body limit; `bodyTooLarge` when the client sent more.
    public let body: [UInt8]
    public let bodyTooLarge: Bool
    /// The query string was refused (a separator character in it, or too many parameters) and `query` is empty.
    public let queryRefused: Bool

    public init(method: String, path: String, query: [String: String] = [:], ifNoneMatch: String? = nil, host: String? = nil,
                authorization: String? = nil, contentType: String? = nil, acceptEncoding: String? = nil, body: [UInt8] = [],
                bodyTooLarge: Bool = false, queryRefused: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.ifNoneMatch = ifNoneMatch
        self.host = host
        self.authorization = authorization
        self.contentType = contentType
        acceptsGzip = Self.acceptsGzip(acceptEncoding)
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.queryRefused = queryRefused
    }

    /// Whether an `Accept-Encoding` value accepts gzip: `gzip` or `*` listed without `q=0`.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { HeaderText.trimmingWhitespace($0).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { return false }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
    }
}

/// An answer: status, content type, body and extra headers.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public var headers: [(String, String)]
    /// When set, the answer is an open stream instead of `body`, handed to this once it is queued.
    public var stream: (@Sendable (HTTPStream) -> Void)?
    /// When set, the answer comes later: this is called with the reply that sends it (exactly once, from any
    /// thread); no thread waits meanwhile.
    public var deferred: (@Sendable (DeferredReply) -> Void)?

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = [], stream: (@Sendable (HTTPStream) -> Void)? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
        self.stream = stream
    }

    /// An answer that `produce` sends later through the reply it is given.
    public static func later(_ produce: @escaping @Sendable (DeferredReply) -> Void) -> HTTPResponse {
        var response = HTTPResponse(status: 0, contentType: "", body: [])
        response.deferred = produce
        return response
    }
}

/// How a deferred answer is sent (call it, exactly once), and whether its client is still there to receive it.
public struct DeferredReply: Sendable {
    private let send: @Sendable (HTTPResponse) -> Void
    /// True once the client has closed its connection: the answer would go nowhere, so work on it may stop.
    public let clientLeft: @Sendable () -> Bool
    /// Registers a function called once the request has ended (its answer read to the end, or the client gone);
    /// call it before sending.
    public let whenEnded: @Sendable (@escaping @Sendable () -> Void) -> Void

    public init(clientLeft: @escaping @Sendable () -> Bool = { false },
                whenEnded: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() },
                send: @escaping @Sendable (HTTPResponse) -> Void) {
        self.send = send
        self.clientLeft = clientLeft
        self.whenEnded = whenEnded
    }

    public func callAsFunction(_ response: HTTPResponse) { send(response) }

    /// The same reply with each answer changed by `transform` before it is sent.
    public func mapping(_ transform: @escaping @Sendable (HTTPResponse) -> HTTPResponse) -> DeferredReply {
        DeferredReply(clientLeft: clientLeft, whenEnded: whenEnded) { [send] in send(transform($0)) }
    }
}

/// A function C calls once, carried through its context pointer.
private final class EndedCallback {
    let call: @Sendable () -> Void
    init(_ call: @escaping @Sendable () -> Void) { self.call = call }
}

/// A deferred answer's C handle, carried to the thread that completes it.
private struct PendingHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// An open response stream (Server-Sent Events): any thread may send; `send` is false once the client left.
public final class HTTPStream: @unchecked Sendable {
    private let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        chttpd_stream_release(handle)
    }

    /// Queues text; false when the stream has ended (the client left, or read too slowly).
    @discardableResult
    public func send(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { chttpd_stream_send(handle, $0.baseAddress, $0.count) } == 0
    }

    /// Ends the stream after what was sent.
    public func end() {
        chttpd_stream_end(handle)
    }
}

/// An HTTP/1.1 server on libmicrohttpd: a pool of threads each answering requests synchronously through
/// `handler`. The only Swift code that touches libmicrohttpd.
public final class HTTPServer: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Seconds a connection may stay idle before it is closed.
    public static let connectionTimeout: UInt32 = 15
    /// Seconds a client has to send a request's line and headers (and as long again for its body), however
    /// steadily it trickles bytes; the allowed range of `serve --request-timeout`.
    public static let defaultRequestTimeout = 10
    public static let requestTimeoutRange = 1...300
    /// Memory per connection; it bounds the request line and headers.
    public static let connectionMemory = 32 * 1024
    public static let connectionLimit: UInt32 = 8192
    /// Connections one client address may hold open at once (a slow client cannot take the server's all).
    public static let defaultPerClientLimit = 256
    /// The largest request body read; longer ones are answered 413.
    public static let bodyLimit = 16 * 1024
    /// How long `stop` lets the requests in flight finish before it closes their connections.
    public static let stopGrace = Duration.seconds(10)

    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let answered: (@Sendable (HTTPRequest, Int, Duration) -> Void)?
    private var server: OpaquePointer?

    /// `answered` is told each request's final status and how long it took (for the access log). The port is the
    /// server's alone (a second server on it fails to start) unless `reusePort` lets servers share it.
    public init(host: String, port: UInt16, threads: Int, perClientLimit: Int = HTTPServer.defaultPerClientLimit,
                requestTimeout: Int = HTTPServer.defaultRequestTimeout, reusePort: Bool = false,
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
                answered: (@Sendable (HTTPRequest, Int, Duration) -> Void)? = nil) throws {
        self.handler = handler
        self.answered = answered
        var message = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passUnretained(self).toOpaque()
        var limits = chttpd_limits(threads: UInt32(max(1, threads)), idle_timeout_seconds: Self.connectionTimeout,
                                   request_timeout_seconds: UInt32(min(max(requestTimeout, Self.requestTimeoutRange.lowerBound), Self.requestTimeoutRange.upperBound)),
                                   connection_memory: Self.connectionMemory, connection_limit: Self.connectionLimit,
                                   per_client_limit: UInt32(max(1, perClientLimit)), body_limit: Self.bodyLimit, reuse_port: reusePort ? 1 : 0)
        server = chttpd_start(host, port, &limits, { context, exchange, request in
                                  guard let context, let exchange, let request else { return }
                                  Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().answer(exchange, request.pointee)
                              }, context, &message, message.count)
        guard server != nil else { throw Failure(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
    }

    deinit {
        chttpd_stop(server, Self.milliseconds(Self.stopGrace))
    }

    /// Whether the server can listen on `host`: an IPv4 or IPv6 address.
    public static func isListenAddress(_ host: String) -> Bool {
        chttpd_valid_host(host) != 0
    }

    /// The port listened on (useful with port 0).
    public var port: UInt16 { chttpd_port(server) }

    /// Stops accepting, ends the event streams and lets the requests in flight finish within `grace`, then
    /// closes every connection. Returns how many requests were cut at the bound (0 when all finished).
    @discardableResult
    public func stop(grace: Duration = HTTPServer.stopGrace) -> Int {
        defer { server = nil }
        return Int(chttpd_stop(server, Self.milliseconds(grace)))
    }

    private static func milliseconds(_ duration: Duration) -> UInt32 {
        UInt32(clamping: duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    private func answer(_ exchange: OpaquePointer, _ raw: chttpd_request) {
        var values: [String: String] = [:]
        for record in String(cString: raw.query).split(separator: "\u{1E}") {
            let parts = record.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        let body = raw.body.map { Array(UnsafeBufferPointer(start: $0, count: raw.body_length)) } ?? []
        let request = HTTPRequest(method: text(raw.method) ?? "", path: text(raw.path) ?? "/", query: values, ifNoneMatch: text(raw.if_none_match),
                                  host: text(raw.host), authorization: text(raw.authorization), contentType: text(raw.content_type),
                                  acceptEncoding: text(raw.accept_encoding),
                                  body: body, bodyTooLarge: raw.body_too_large != 0, queryRefused: raw.query_refused != 0)
        let started = ContinuousClock.now
        let response = handler(request)
        if let produce = response.deferred {
            guard let pending = chttpd_defer(exchange) else { return }
            let answered = self.answered
            let handle = PendingHandle(pointer: pending)
            let whenEnded: @Sendable (@escaping @Sendable () -> Void) -> Void = { ended in
                chttpd_pending_on_end(handle.pointer, { context in
                    guard let context else { return }
                    Unmanaged<EndedCallback>.fromOpaque(context).takeRetainedValue().call()
                }, Unmanaged.passRetained(EndedCallback(ended)).toOpaque())
            }
            produce(DeferredReply(clientLeft: { chttpd_pending_client_left(handle.pointer) != 0 }, whenEnded: whenEnded) { final in
                chttpd_pending_header(handle.pointer, "Content-Type", final.contentType)
                for (name, value) in final.headers { chttpd_pending_header(handle.pointer, name, value) }
                final.body.withUnsafeBufferPointer { chttpd_complete(handle.pointer, UInt32(final.status), $0.baseAddress, $0.count) }
                answered?(request, final.status, ContinuousClock.now - started)
            })
            return
        }
        defer { answered?(request, response.status, ContinuousClock.now - started) }
        chttpd_add_header(exchange, "Content-Type", response.contentType)
        for (name, value) in response.headers { chttpd_add_header(exchange, name, value) }
        if let onStream = response.stream {
            guard let handle = chttpd_respond_stream(exchange, UInt32(response.status)) else { return }
            onStream(HTTPStream(handle: handle))
            return
        }
        response.body.withUnsafeBufferPointer { body in
            _ = chttpd_respond(exchange, UInt32(response.status), body.baseAddress, body.count)
        }
    }
}
