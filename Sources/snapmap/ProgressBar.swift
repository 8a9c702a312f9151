import Foundation

/// A one-line progress bar on standard error (done/total, tiles per second, time left), drawn only when
/// standard error is a terminal.
struct ProgressBar {
    static let width = 30

    let isTerminal = isatty(STDERR_FILENO) != 0
    let started = ContinuousClock.now
    let startDone: Int

    func update(done: Int, total: Int) {
        guard isTerminal, total > 0 else { return }
        let elapsed = max((ContinuousClock.now - started) / .seconds(1), 1e-3)
        let rate = Double(done - startDone) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        let filled = Self.width * done / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: Self.width - filled)
        let line = String(format: "\r[%@] %d/%d tiles  %.1f tiles/s  %ds left ", bar, done, total, rate, Int(left.rounded()))
        Console.error(line)
        if done == total { Console.error("\n") }
    }
}

/// Turns Ctrl-C into a request to stop after the current batch, so the output stays valid.
final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    private var source: (any DispatchSourceSignal)?

    func install() {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in self?.raise() }
        source.resume()
        self.source = source
    }

    private func raise() {
        lock.lock()
        raised = true
        lock.unlock()
    }

    var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }
}
