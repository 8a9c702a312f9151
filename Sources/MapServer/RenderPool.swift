import Foundation
import MapEngine

/// Where heavy answers (frames, tiles not yet cached) are made: at most `width` at a time off the server's
/// threads, so cheap requests (`/healthz`, layouts, cached tiles) are never starved; when `queueLimit` renders
/// already wait, a new one is refused with 503 and `Retry-After` instead of piling up. One person holds at most
/// `perPersonLimit` of its places (429 past them), renders run together only while their estimated memory fits
/// `memoryBudget` (whatever the core count; an answer counts until its client has read it), and a render whose client
/// has left is dropped unmade.
final class RenderPool: @unchecked Sendable {
    /// Bytes that renders running at once may use together (each says its estimate; a larger one runs alone).
    static let memoryBudget = 640 << 20
    /// Renders one person may have waiting or running at once: a phone asks a frame, a selected frame and a fly-to.
    static let perPersonLimit = 4
    /// The status logged for an answer whose client left before it was made (nginx's "client closed request").
    static let clientLeftStatus = 499
    /// How long after its request a render may still start or go on: past it, a 503 with `Retry-After`.
    static let renderBound = Duration.seconds(120)

    let width: Int
    let queueLimit: Int
    private let queue: DispatchQueue
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var waiting = 0
    private var held: [String: Int] = [:]
    private let memory = NSCondition()
    private var memoryInUse = 0

    init(width: Int = ProcessInfo.processInfo.activeProcessorCount, queueLimit: Int = 4 * ProcessInfo.processInfo.activeProcessorCount) {
        self.width = max(1, width)
        self.queueLimit = max(1, queueLimit)
        queue = DispatchQueue(label: "snapmap-render", attributes: .concurrent)
        slots = DispatchSemaphore(value: self.width)
    }

    /// An answer made by `make` on the pool (errors become their JSON answers): 503 when the queue is full, 429
    /// when `person` already holds `perPersonLimit` places. `make` is told when to stop early (its client left, or
    /// `renderBound` passed: 503); it starts once `bytes` (its memory estimate) fit beside the renders running.
    func answer(for person: String? = nil, bytes: Int = 0, _ make: @escaping @Sendable (_ shouldStop: @escaping @Sendable () -> Bool) throws -> HTTPResponse) -> HTTPResponse {
        lock.lock()
        guard waiting < queueLimit + width else {
            lock.unlock()
            return MapAPI.json(503, ["error": "busy rendering; retry after the Retry-After seconds"], headers: [("Retry-After", "1")])
        }
        if let person {
            guard held[person, default: 0] < Self.perPersonLimit else {
                lock.unlock()
                return MapAPI.json(429, ["error": "at most \(Self.perPersonLimit) frames at a time for one person; retry after the Retry-After seconds"],
                                   headers: [("Retry-After", "1")])
            }
            held[person, default: 0] += 1
        }
        waiting += 1
        lock.unlock()
        let deadline = ContinuousClock.now + Self.renderBound
        return .later { reply in
            self.queue.async {
                self.slots.wait()
                let cost = self.reserve(bytes)
                let late: @Sendable () -> Bool = { ContinuousClock.now > deadline }
                let tooLate = MapAPI.json(503, ["error": "not drawn within \(Self.renderBound.components.seconds) s of the request; retry after the Retry-After seconds"],
                                          headers: [("Retry-After", "1")])
                let response: HTTPResponse
                if reply.clientLeft() {
                    response = MapAPI.json(Self.clientLeftStatus, ["error": "the client left before its answer was made"])
                } else if late() {
                    response = tooLate
                } else {
                    do { response = try make { reply.clientLeft() || late() } } catch is RenderStopped where !reply.clientLeft() {
                        response = tooLate
                    } catch { response = MapAPI.failure(error) }
                }
                // The place is given back before the answer goes, so a client that asks again on receiving it finds it free;
                // its memory (the answer at least) once the client has read it all, or left.
                let held = min(max(cost, response.body.count), Self.memoryBudget)
                self.reserve(more: held - cost)
                reply.whenEnded { self.unreserve(held) }
                self.slots.signal()
                self.release(person)
                reply(response)
            }
        }
    }

    /// Waits until `bytes` fit within the budget beside what runs (alone when they never would), and takes them.
    private func reserve(_ bytes: Int) -> Int {
        let cost = min(max(0, bytes), Self.memoryBudget)
        memory.lock()
        defer { memory.unlock() }
        while memoryInUse + cost > Self.memoryBudget { memory.wait() }
        memoryInUse += cost
        return cost
    }

    /// Takes `bytes` more for an answer that came out larger than its estimate, without waiting (it is made already).
    private func reserve(more bytes: Int) {
        guard bytes > 0 else { return }
        memory.lock()
        memoryInUse += bytes
        memory.unlock()
    }

    private func unreserve(_ cost: Int) {
        memory.lock()
        memoryInUse -= cost
        memory.broadcast()
        memory.unlock()
    }

    private func release(_ person: String?) {
        lock.lock()
        defer { lock.unlock() }
        waiting -= 1
        if let person {
            held[person, default: 1] -= 1
            if held[person] == 0 { held[person] = nil }
        }
    }
}
