import Foundation

/// A thread of its own that runs one loop until stopped: the condition the loop waits on (and its callers hold to
/// hand it work) and the stop flag that wakes it. The SQLite writer's and checkpointer's.
final class StoppableThread: @unchecked Sendable {
    /// Held to read `stopped` and whatever the loop waits for; `stop()` signals it.
    let condition = NSCondition()
    /// Whether `stop()` was called; read with `condition` held.
    private(set) var stopped = false

    /// Starts `loop` on a new thread named `name`.
    func start(name: String, _ loop: @escaping @Sendable () -> Void) {
        let thread = Thread(block: loop)
        thread.name = name
        thread.start()
    }

    /// Sets the stop flag and wakes the loop.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }
}
