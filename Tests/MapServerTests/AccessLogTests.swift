import Foundation
import Testing
@testable import MapServer

@Suite("The access log")
struct AccessLogTests {
    @Test func noRequestCanForgeALine() {
        let forged = AccessLog.escaped("/x\nGET /v1/layout.json 200 1.0ms\r\\")
        #expect(!forged.contains("\n") && !forged.contains("\r") && !forged.contains(" "))
        #expect(forged == "/x\\x0AGET\\x20/v1/layout.json\\x20200\\x201.0ms\\x0D\\x5C")
        #expect(AccessLog.escaped(String(repeating: "a", count: 500)).count == 200)
    }

    /// Each ASCII character in a path (where the fast path for printable ASCII applies) is escaped
    /// exactly when Unicode's categories say so (or it is a backslash).
    @Test func asciiIsEscapedByItsCategory() {
        for value in UInt8(0)...UInt8(0x7F) {
            let scalar = Unicode.Scalar(value)
            let category = scalar.properties.generalCategory
            let escapes = [.control, .format, .spaceSeparator].contains(category) || scalar == "\\"
            let text = "/v1/me/\(Character(scalar))x"
            let expected = escapes ? "/v1/me/\\x" + String(format: "%02X", value) + "x" : text
            #expect(AccessLog.escaped(text) == expected, "\(value)")
        }
    }

    /// Readers that split lines on U+0085, U+2028, U+2029 or C1 controls, or show bidi overrides, see one line too.
    @Test func unicodeLineBreaksSeparatorsAndBidiControlsAreEscaped() throws {
        let pipe = Pipe()
        let log = AccessLog(output: pipe.fileHandleForWriting)
        let forged = " GET /v1/me/layout.json 200 1.0ms"
        let path = "/a\u{2028}\(forged)\u{0085}\(forged)\u{2029}b\u{009B}31m\u{202E}c\u{2066}d\u{00A0}e\u{200B}f\u{E0041}"
        log.record(HTTPRequest(method: "GET\u{0085}", path: path), status: 404, duration: .milliseconds(1))
        var written = Data()
        while !written.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the log wrote its line")
            written += chunk
        }
        let line = String(decoding: written, as: UTF8.self)
        let breaks = Array(line.unicodeScalars).filter { $0.properties.generalCategory == .control || $0.properties.isBidiControl
                                                   || $0 == "\u{2028}" || $0 == "\u{2029}" }
        #expect(breaks == ["\n"] && line.hasSuffix("\n"), "one line, its only control the final line feed: \(line.debugDescription)")
        #expect(line.hasPrefix("GET\\x85 /a\\u2028\\x20GET\\x20/v1/me/layout.json\\x20200\\x201.0ms\\x85"), "\(line)")
        #expect(line.contains("\\u2029b\\x9B31m\\u202Ec\\u2066d\\xA0e\\u200Bf\\U000E0041 404 "), "\(line)")
    }

    @Test func aFullBufferDropsAndCountsInsteadOfBlocking() throws {
        let pipe = Pipe()
        let log = AccessLog(output: pipe.fileHandleForWriting)
        let request = HTTPRequest(method: "GET", path: "/" + String(repeating: "p", count: 150))
        let lines = AccessLog.bufferLimit / 100 + 70_000
        for _ in 0..<lines { log.record(request, status: 200, duration: .milliseconds(1)) }
        #expect(log.droppedLines > 0, "nobody reads the pipe: lines beyond the buffer are dropped, and recording never blocked")
    }
}
