import Foundation
import Raster

/// Peak memory of `snapmap render` for the largest frame it allows (7998×7998 px: 2666 pt at @3x, base, glow
/// and pins), which is rendered and encoded band by band, against the default phone frame's process and
/// against what the whole frame's 16-bit canvas alone would take.
enum MemoryBenchmark {
    static let goalBytes = 300 * 1024 * 1024

    static func run() throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-bench-memory-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        // GNU time forks (a vfork'd child, as posix_spawn makes, would count this process's pages in its peak).
        func peak(_ options: [String]) throws -> Int {
            let printed = try BenchmarkProcess.run("/usr/bin/time", ["-f", "%M", ".build/release/snapmap", "render", "--layers", "base,heat,pins",
                                                                     "--out", output] + options, standardError: true)
            guard let kilobytes = printed.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
                throw BenchmarkFailure(message: "time printed \(printed)")
            }
            return kilobytes * 1024
        }
        let phone = try peak([])
        let largest = try peak(["--size", "2666x2666", "--scale", "3"])
        let canvas = 7998 * 7998 * 8
        func mb(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1_048_576) }
        return "memory: largest frame (7998×7998) peak RSS \(mb(largest)) (goal ≤ \(mb(goalBytes)): \(largest <= goalBytes ? "met" : "not met")); "
            + "the phone frame (1179×2556) \(mb(phone)), \(String(format: "%.1f", Double(largest) / Double(phone)))× it for 21× the pixels; "
            + "the largest frame's whole 16-bit canvas alone would be \(mb(canvas))"
    }
}
