import Foundation

/// The server's access log: a line per answer (method, path, status, milliseconds), control characters escaped so
/// no request can forge a line, written by a background thread from a bounded buffer. Serving never waits for
/// the log: when the buffer is full (nobody reads the output), lines are dropped and counted.
public final class AccessLog: @unchecked Sendable {
    /// Bytes held before lines are dropped.
    public static let bufferLimit = 1 << 20
    static let flushInterval = 0.2

    private let output: FileHandle
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var dropped = 0

    /// Writes to `output`. A reader that goes away must not kill the server, so SIGPIPE is ignored from here on.
    public init(output: FileHandle) {
        self.output = output
        signal(SIGPIPE, SIG_IGN)
        let thread = Thread { self.drain() }
        thread.name = "snapmap-access-log"
        thread.start()
    }

    /// The lines dropped so far because the log could not keep up.
    public var droppedLines: Int {
        lock.lock()
        defer { lock.unlock() }
        return dropped
    }

    public func record(_ request: HTTPRequest, status: Int, duration: Duration) {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        let line = "\(Self.escaped(request.method)) \(Self.escaped(request.path)) \(status) \((milliseconds * 10).rounded() / 10)ms\n"
        lock.lock()
        if buffer.count + line.utf8.count > Self.bufferLimit {
            dropped += 1
        } else {
            buffer += line.utf8
        }
        lock.unlock()
    }

    /// Text with control characters, spaces and backslashes as `\xNN`, at most 200 characters.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(200) {
            if scalar.value < 0x21 || scalar.value == 0x7F || scalar == "\\" {
                result += String(format: "\\x%02X", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private func drain() {
        while true {
            Thread.sleep(forTimeInterval: Self.flushInterval)
            lock.lock()
            let chunk = buffer
            buffer.removeAll(keepingCapacity: true)
            lock.unlock()
            if !chunk.isEmpty { try? output.write(contentsOf: chunk) }
        }
    }
}
