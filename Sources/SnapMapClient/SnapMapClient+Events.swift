import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SnapMapClient {
    /// `/v1/me/events` as typed events. When the stream ends, breaks or is refused for now (429, 503) it is opened again
    /// after `reconnectDelay` seconds, else the refusal's `Retry-After`, else the server's `retry`; `ready` restates the
    /// whole map, so nothing is missed. Events of unknown types are skipped. It finishes by throwing `SnapMapError.unauthorized` once the token is revoked, and ends when the
    /// consumer stops iterating.
    public func events(reconnectDelay: Double? = nil) -> AsyncThrowingStream<FriendEvent, any Error> {
        AsyncThrowingStream { continuation in
            let connection = EventConnection(request: eventRequest(), continuation: continuation, reconnectDelay: reconnectDelay)
            continuation.onTermination = { _ in connection.close() }
            connection.open()
        }
    }

    private func eventRequest() -> URLRequest {
        var request = URLRequest(url: url("/v1/me/events"))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue("snapmap-client/\(Self.version)", forHTTPHeaderField: "User-Agent")
        if let token { request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization") }
        request.timeoutInterval = 24 * 3600
        return request
    }
}

/// One event stream held open, reopened after each end; Server-Sent Events parsed line by line.
final class EventConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The most an event (or a line) may hold; a stream that sends more is dropped and opened again.
    static let maxEventBytes = 1 << 20

    private let request: URLRequest
    private let continuation: AsyncThrowingStream<FriendEvent, any Error>.Continuation
    private let lock = NSLock()
    private var session: URLSession?
    private var closed = false
    private var pending = Data()
    private var eventName = ""
    private var dataLines: [String] = []
    private var status = 0
    private var errorBody = Data()
    /// Seconds before reopening: the caller's, else the last refusal's `Retry-After` or the server's last `retry`, else 2.
    private var delay: Double
    private let fixedDelay: Bool

    init(request: URLRequest, continuation: AsyncThrowingStream<FriendEvent, any Error>.Continuation, reconnectDelay: Double?) {
        self.request = request
        self.continuation = continuation
        delay = reconnectDelay ?? 2
        fixedDelay = reconnectDelay != nil
    }

    func open() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        self.session = session
        (status, errorBody, pending, eventName, dataLines) = (0, Data(), Data(), "", [])
        session.dataTask(with: request).resume()
    }

    func close() {
        lock.lock()
        closed = true
        let session = self.session
        lock.unlock()
        session?.invalidateAndCancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        lock.lock()
        status = http?.statusCode ?? 0
        let retryAfter = http?.allHeaderFields.first { String(describing: $0.key).lowercased() == "retry-after" }.flatMap { Double("\($0.value)") }
        if status != 200, !fixedDelay, let retryAfter { delay = retryAfter }
        lock.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        defer { lock.unlock() }
        guard status == 200 else { errorBody.append(data.prefix(4096 - errorBody.count)); return }
        pending.append(data)
        guard pending.count + dataLines.reduce(0, { $0 + $1.utf8.count }) <= Self.maxEventBytes else {
            dataTask.cancel()
            return
        }
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            pending = Data(pending[pending.index(after: newline)...])
            take(line)
        }
    }

    /// One line of the stream: a field, a comment, or the blank line that ends an event.
    private func take(_ line: String) {
        guard !line.isEmpty else {
            if let event = Self.event(eventName, dataLines.joined(separator: "\n")) { continuation.yield(event) }
            (eventName, dataLines) = ("", [])
            return
        }
        guard !line.hasPrefix(":") else { return }
        let field = line.prefix { $0 != ":" }
        var value = line.dropFirst(field.count + 1)
        if value.hasPrefix(" ") { value = value.dropFirst() }
        switch field {
        case "event": eventName = String(value)
        case "data": dataLines.append(String(value))
        case "retry": if !fixedDelay, let milliseconds = Double(value) { delay = milliseconds / 1000 }
        default: break
        }
    }

    /// A `live-started` event's data.
    private struct LiveStart: Decodable {
        let id: String
        let until: Date
    }

    static func event(_ name: String, _ data: String) -> FriendEvent? {
        let bytes = Data(data.utf8)
        let decoder = SnapMapClient.decoder
        switch name {
        case "ready": return (try? decoder.decode([MapFriend].self, from: bytes)).map(FriendEvent.ready)
        case "appear": return (try? decoder.decode(MapFriend.self, from: bytes)).map(FriendEvent.appear)
        case "move": return (try? decoder.decode(MapFriend.self, from: bytes)).map(FriendEvent.move)
        case "disappear": return (try? decoder.decode([String: String].self, from: bytes))?["id"].map { FriendEvent.disappear(id: $0) }
        case "live-started": return (try? decoder.decode(LiveStart.self, from: bytes)).map { FriendEvent.liveStarted(id: $0.id, until: $0.until) }
        case "live-ended": return (try? decoder.decode([String: String].self, from: bytes))?["id"].map { FriendEvent.liveEnded(id: $0) }
        default: return nil
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let (status, body, closed, delay) = (self.status, errorBody, self.closed, self.delay)
        lock.unlock()
        session.finishTasksAndInvalidate()
        guard !closed else { return }
        // 401: the token was revoked or the account deleted, and no reconnection brings it back.
        if status != 0 && status != 200 && status != 429 && status != 503 {
            continuation.finish(throwing: SnapMapError.from(status: status, body: body, retryAfter: delay))
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in open() }
    }
}
