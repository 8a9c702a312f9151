import Foundation

/// A viewer's `/v1/me/events` stream read through curl, as a phone would hold it open; ends when dropped (curl's own
/// limit is ten minutes: a minute was passed under the whole suite's load, and curl's exit looked like the server's
/// end of the stream). What arrives is read on a thread of its own, so a test can wait for text or the end.
public final class EventStream: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let condition = NSCondition()
    private var text = ""
    private var ended = false

    /// Opens `server`'s event stream with `token`.
    public convenience init(server: ServerFixture, token: String) throws {
        try self.init(base: server.base, token: token)
    }

    /// Opens the event stream of the server at `base` (one in the test's own process, say) with `token`.
    public init(base: URL, token: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sN", "--max-time", "600", "-H", "Authorization: Bearer \(token)", base.absoluteString + "/v1/me/events"]
        process.standardOutput = output
        try TestProcess.launch(process)
        let descriptor = output.fileHandleForReading.fileDescriptor
        // Plain read(2), retried when a signal interrupts it: only curl closing its output (the stream's end) reads 0.
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = Glibc.read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                condition.lock()
                if count > 0 { text += String(decoding: buffer[..<count], as: UTF8.self) } else { ended = true }
                condition.broadcast()
                condition.unlock()
                if count <= 0 { return }
            }
        }
    }

    deinit {
        process.terminate()
    }

    /// Everything the stream has delivered so far.
    public var received: String {
        condition.lock()
        defer { condition.unlock() }
        return text
    }

    /// Waits until `marker` has arrived with the rest of the event it is in (true: what follows it holds the blank line
    /// that ends an event, so its data has come whole however the bytes were cut on the way), or the stream ends or
    /// `timeout` seconds pass (false).
    @discardableResult
    public func read(until marker: String, timeout: Double = 30) -> Bool {
        wait(timeout) { text, _ in text.range(of: marker).map { text[$0.upperBound...].contains("\n\n") } ?? false }
    }

    /// Waits until the text delivered so far satisfies `done` (true), or the stream ends or `timeout` seconds pass (false).
    @discardableResult
    public func read(timeout: Double = 30, until done: (String) -> Bool) -> Bool {
        wait(timeout) { text, _ in done(text) }
    }

    /// Waits until `marker` has arrived `count` times (true), or the stream ends or `timeout` seconds pass (false).
    @discardableResult
    public func read(until marker: String, count: Int, timeout: Double = 30) -> Bool {
        wait(timeout) { text, _ in text.components(separatedBy: marker).count - 1 >= count }
    }

    /// Waits until the server ends the stream (true) or `timeout` seconds pass (false).
    public func waitForEnd(timeout: Double) -> Bool {
        wait(timeout) { _, ended in ended }
    }

    /// Waits until `done` holds (true), or the stream ends or `timeout` seconds pass (false).
    private func wait(_ timeout: Double, _ done: (String, Bool) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(text, ended) {
            guard !ended, condition.wait(until: deadline) else { return done(text, ended) }
        }
        return true
    }
}
