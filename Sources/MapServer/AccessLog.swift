import Foundation

/// The server's access log: a line per answer (method, path, status, milliseconds), Unicode's control, format and
/// separator characters escaped so no request can forge a line, written by a background thread from a bounded
/// buffer. Serving never waits for the log: when the buffer is full (nobody reads the output), lines are dropped
/// and counted.
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

    /// Text with every character of Unicode's control, format (bidi controls among them), separator (spaces, U+2028,
    /// U+2029), private-use and unassigned categories, and backslashes, as `\xNN` (to U+00FF), `\uNNNN` or
    /// `\UNNNNNNNN`; at most 200 characters. No request can start a line or turn one around for any reader.
    static func escaped(_ text: String) -> String {
        // Printable ASCII but the backslash (every path a client of the API sends) is kept as it is.
        if text.utf8.count <= 200, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }) { return text }
        var result = ""
        for scalar in text.unicodeScalars.prefix(200) {
            if needsEscape(scalar) {
                let (prefix, digits) = scalar.value <= 0xFF ? ("\\x", 2) : scalar.value <= 0xFFFF ? ("\\u", 4) : ("\\U", 8)
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += prefix + String(repeating: "0", count: digits - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: return true
        default: return scalar == "\\"
        }
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
