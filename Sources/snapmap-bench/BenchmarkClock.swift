import Foundation

/// Times work on the wall clock; the best of several runs resists a noisy shared machine.
enum BenchmarkClock {
    /// The best time in seconds of `repeats` runs of `work`.
    static func best(of repeats: Int, _ work: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        let clock = ContinuousClock()
        for _ in 0..<repeats {
            let elapsed = try clock.measure(work)
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return best
    }

    /// The best wall time and the best CPU time of the calling thread, in seconds, over `repeats` runs of `work`: for
    /// work done on one thread, the CPU time is what it costs however many other processes share the cores.
    static func bestWallAndThreadCPU(of repeats: Int, _ work: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        var best = (wall: Double.infinity, cpu: Double.infinity)
        let clock = ContinuousClock()
        for _ in 0..<repeats {
            let cpu = threadCPU()
            let elapsed = try clock.measure(work)
            best = (min(best.wall, seconds(elapsed)), min(best.cpu, threadCPU() - cpu))
        }
        return best
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// The CPU time the calling thread has used, in seconds.
    static func threadCPU() -> Double { cpuTime(CLOCK_THREAD_CPUTIME_ID) }

    /// The CPU time every thread of this process has used, in seconds.
    static func processCPU() -> Double { cpuTime(CLOCK_PROCESS_CPUTIME_ID) }

    private static func cpuTime(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// The mean time in seconds of `repeats` runs of `work`.
    static func mean(of repeats: Int, _ work: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        var total = 0.0
        for _ in 0..<repeats {
            let elapsed = try clock.measure(work)
            total += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        return total / Double(repeats)
    }

    /// The best time of `repeats` runs of `work` on fresh copies of two arrays made outside the timing.
    static func best(of repeats: Int, prepare: () -> ([Double], [Double]),
                     _ work: (inout [Double], inout [Double]) throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<repeats {
            var (first, second) = prepare()
            first.withUnsafeMutableBufferPointer { _ in }
            second.withUnsafeMutableBufferPointer { _ in }
            best = min(best, try self.best(of: 1) { try work(&first, &second) })
        }
        return best
    }

    /// One line: our figure, the anchor's, and the ratio between them.
    static func report(_ name: String, ours: Double, anchor: Double, anchorName: String, unit: String = "s") -> String {
        let ratio = anchor / ours
        return "\(name): ours \(format(ours)) \(unit), \(anchorName) \(format(anchor)) \(unit), \(format(ratio))× \(ratio >= 1 ? "faster" : "slower")"
    }

    static func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.3g", value)
    }
}
