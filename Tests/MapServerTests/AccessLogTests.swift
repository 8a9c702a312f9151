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

    @Test func aFullBufferDropsAndCountsInsteadOfBlocking() throws {
        let pipe = Pipe()
        let log = AccessLog(output: pipe.fileHandleForWriting)
        let request = HTTPRequest(method: "GET", path: "/" + String(repeating: "p", count: 150))
        let lines = AccessLog.bufferLimit / 100 + 70_000
        for _ in 0..<lines { log.record(request, status: 200, duration: .milliseconds(1)) }
        #expect(log.droppedLines > 0, "nobody reads the pipe: lines beyond the buffer are dropped, and recording never blocked")
    }
}
