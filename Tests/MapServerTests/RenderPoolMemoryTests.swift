import Foundation
import Testing
@testable import MapServer

/// An answer's memory counts against the render pool's budget until its client has read it all (or left): slow
/// readers of large answers (fly-tos of 85 MB) once held them beside new renders, past the process's bound.
@Suite("Answers count until their clients have read them")
struct RenderPoolMemoryTests {
    /// Records what a deferred answer's reply is asked: its answer, and the function to call when it has been read.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var ended: (@Sendable () -> Void)?
        let sent = DispatchSemaphore(value: 0)

        var reply: DeferredReply {
            DeferredReply(whenEnded: { ended in self.lock.withLock { self.ended = ended } }) { _ in self.sent.signal() }
        }

        func end() { lock.withLock { ended }?() }
    }

    @Test func aRenderWaitsUntilTheAnswersBeforeItHaveBeenRead() throws {
        let pool = RenderPool(width: 2, queueLimit: 4)
        let first = Recorder()
        let large = [UInt8](repeating: 7, count: RenderPool.memoryBudget)
        let made = pool.answer(bytes: 1) { _ in HTTPResponse(status: 200, contentType: "image/png", body: large) }
        let produce = try #require(made.deferred)
        produce(first.reply)
        #expect(first.sent.wait(timeout: .now() + 60) == .success, "the first answer was made")
        let second = Recorder()
        let started = DispatchSemaphore(value: 0)
        let waiting = pool.answer(bytes: 1) { _ in
            started.signal()
            return HTTPResponse(status: 200, contentType: "image/png", body: [1])
        }
        let produceSecond = try #require(waiting.deferred)
        produceSecond(second.reply)
        #expect(started.wait(timeout: .now() + 0.5) == .timedOut, "the second render waits while the first answer is unread")
        first.end()
        #expect(started.wait(timeout: .now() + 60) == .success, "it starts once the first answer has been read")
        #expect(second.sent.wait(timeout: .now() + 60) == .success)
        second.end()
    }
}
