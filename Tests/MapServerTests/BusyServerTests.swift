import Foundation
import MapServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The request timeout cuts slow clients, not a busy server: a request that reached the server whole while its
/// polling thread was held by another request's handler past the timeout is answered, not closed unanswered
/// (what a loaded full test run saw as NSURLError -1005, "connection lost").
@Suite struct BusyServerTests {
    /// A blocking TCP client on 127.0.0.1.
    private struct Client {
        let socket: Int32

        init(port: UInt16) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var wait = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard socket >= 0 && connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        }

        func get(_ path: String) {
            let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        }

        /// Everything the server sends until it closes the connection (or a minute passes).
        func reply() -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while case let count = recv(socket, &buffer, buffer.count, 0), count > 0 { bytes += buffer.prefix(count) }
            close(socket)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    @Test func aRequestWaitingOnABusyServerIsAnsweredPastTheRequestTimeout() async throws {
        // The clients block: on a thread of their own, not the test pool's.
        let (held, waited) = try await withCheckedThrowingContinuation { (done: CheckedContinuation<(String, String), any Error>) in
            Thread.detachNewThread { done.resume(with: Result { try Self.holdAndWait() }) }
        }
        #expect(held.hasSuffix("answered /hold"))
        #expect(waited.hasPrefix("HTTP/1.1 200") && waited.hasSuffix("answered /waiting"), "\(waited)")
    }

    /// The replies to a request holding the server's one thread past the timeout and to one waiting meanwhile.
    private static func holdAndWait() throws -> (String, String) {
        let timeout = 1
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, threads: 1, requestTimeout: timeout) { request in
            if request.path == "/hold" {
                entered.signal()
                release.wait()
            }
            return HTTPResponse(status: 200, contentType: "text/plain", body: Array("answered \(request.path)".utf8))
        }
        let waiting = try Client(port: server.port)
        let holding = try Client(port: server.port)
        holding.get("/hold")
        entered.wait()
        // The server's one polling thread is in /hold's handler: the second request arrives whole, unread, and
        // stays so past its connection's request timeout.
        waiting.get("/waiting")
        Thread.sleep(forTimeInterval: Double(timeout) + 1.5)
        release.signal()
        return withExtendedLifetime(server) { (holding.reply(), waiting.reply()) }
    }
}
