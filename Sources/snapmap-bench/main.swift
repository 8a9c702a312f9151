import Foundation
import MapEngine

/// `make bench`: each benchmark prints its figure as a ratio against an anchor measured in the same run.
let benchmarks: [(name: String, run: () throws -> String)] = [
    ("projection", ProjectionBenchmark.run),
    ("raster", RasterBenchmark.run),
    ("basemap", BaseMapBenchmark.run),
    ("heat", HeatBenchmark.run),
    ("glow", GlowBenchmark.run),
    ("layout", LayoutBenchmark.run),
    ("stages", FrameStagesBenchmark.run),
    ("memory", MemoryBenchmark.run),
    ("fly", FlyBenchmark.run),
    ("vector", VectorBenchmark.run),
    ("serve", ServeBenchmark.run),
    ("live", LiveBenchmark.run),
    ("redis", RedisBenchmark.run),
]
// As `snapmap` does: its in-process renders take the same allocator settings.
HeapTuning.keepFrameBlocks()
let selected = Set(CommandLine.arguments.dropFirst())
for benchmark in benchmarks where selected.isEmpty || selected.contains(benchmark.name) {
    do {
        print(try benchmark.run())
    } catch {
        FileHandle.standardError.write(Data("\(benchmark.name): \(error)\n".utf8))
        exit(1)
    }
}
