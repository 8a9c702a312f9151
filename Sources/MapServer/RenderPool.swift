import Foundation

/// Where heavy answers (frames, tiles not yet cached) are made: at most `width` at a time off the server's
/// threads, so cheap requests (`/healthz`, layouts, cached tiles) are never starved; when `queueLimit` renders
/// already wait, a new one is refused with 503 and `Retry-After` instead of piling up.
final class RenderPool: @unchecked Sendable {
    let width: Int
    let queueLimit: Int
    private let queue: DispatchQueue
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var waiting = 0

    init(width: Int = ProcessInfo.processInfo.activeProcessorCount, queueLimit: Int = 4 * ProcessInfo.processInfo.activeProcessorCount) {
        self.width = max(1, width)
        self.queueLimit = max(1, queueLimit)
        queue = DispatchQueue(label: "snapmap-render", attributes: .concurrent)
        slots = DispatchSemaphore(value: self.width)
    }

    /// An answer made by `make` on the pool (errors become their JSON answers), or 503 when the queue is full.
    func answer(_ make: @escaping @Sendable () throws -> HTTPResponse) -> HTTPResponse {
        lock.lock()
        guard waiting < queueLimit + width else {
            lock.unlock()
            return MapAPI.json(503, ["error": "busy rendering; retry after the Retry-After seconds"], headers: [("Retry-After", "1")])
        }
        waiting += 1
        lock.unlock()
        return .later { send in
            self.queue.async {
                self.slots.wait()
                defer {
                    self.slots.signal()
                    self.lock.lock()
                    self.waiting -= 1
                    self.lock.unlock()
                }
                do { send(try make()) } catch { send(MapAPI.failure(error)) }
            }
        }
    }
}
