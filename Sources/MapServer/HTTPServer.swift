import CMicroHTTPD
import Foundation

/// One HTTP request as the map API sees it: GET or HEAD (others are refused), a path and decoded query.
public struct HTTPRequest: Sendable {
    public let method: String
    public let path: String
    public let query: [String: String]
    public let ifNoneMatch: String?
    /// The Host header, for absolute URLs in answers.
    public let host: String?
}

/// An answer: status, content type, body and extra headers.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public var headers: [(String, String)]

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
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
    /// Memory per connection; it bounds the request line and headers.
    public static let connectionMemory = 32 * 1024
    public static let connectionLimit: UInt32 = 1024

    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private var server: OpaquePointer?

    public init(host: String, port: UInt16, threads: Int, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        self.handler = handler
        var message = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passUnretained(self).toOpaque()
        server = chttpd_start(host, port, UInt32(max(1, threads)), Self.connectionTimeout, Self.connectionMemory, Self.connectionLimit,
                              { context, exchange, method, path, query, ifNoneMatch, host in
                                  guard let context, let exchange else { return }
                                  Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
                                      .answer(exchange, method: method, path: path, query: query, ifNoneMatch: ifNoneMatch, host: host)
                              }, context, &message, message.count)
        guard server != nil else { throw Failure(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
    }

    deinit {
        chttpd_stop(server)
    }

    /// The port listened on (useful with port 0).
    public var port: UInt16 { chttpd_port(server) }

    public func stop() {
        chttpd_stop(server)
        server = nil
    }

    private func answer(_ exchange: OpaquePointer, method: UnsafePointer<CChar>?, path: UnsafePointer<CChar>?,
                        query: UnsafePointer<CChar>?, ifNoneMatch: UnsafePointer<CChar>?, host: UnsafePointer<CChar>?) {
        var values: [String: String] = [:]
        for record in String(cString: query!).split(separator: "\u{1E}") {
            let parts = record.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "", path: path.map { String(cString: $0) } ?? "/",
                                  query: values, ifNoneMatch: ifNoneMatch.map { String(cString: $0) }, host: host.map { String(cString: $0) })
        let response = handler(request)
        chttpd_add_header(exchange, "Content-Type", response.contentType)
        for (name, value) in response.headers { chttpd_add_header(exchange, name, value) }
        response.body.withUnsafeBufferPointer { body in
            _ = chttpd_respond(exchange, UInt32(response.status), body.baseAddress, body.count)
        }
    }
}
