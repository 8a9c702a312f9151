import Foundation
import MapEngine
import Raster

/// `make bench`: each benchmark prints its figure as a ratio against an anchor measured in the same run; one that fails
/// prints its error and the others still run (the exit status then says one failed).
let benchmarks: [(name: String, run: () throws -> String)] = [
    ("projection", ProjectionBenchmark.run),
    ("raster", RasterBenchmark.run),
    ("basemap", BaseMapBenchmark.run),
    ("heat", HeatBenchmark.run),
    ("glow", GlowBenchmark.run),
    ("layout", LayoutBenchmark.run),
    ("layout-pins", LayoutBenchmark.runPins),
    ("layout-runs", LayoutRunsBenchmark.run),
    ("stages", FrameStagesBenchmark.run),
    ("memory", MemoryBenchmark.run),
    ("fly", FlyBenchmark.run),
    ("vector", VectorBenchmark.run),
    ("serve", ServeBenchmark.run),
    ("live", LiveBenchmark.run),
    ("view", ViewBenchmark.run),
    ("viewmemory", ViewMemoryBenchmark.run),
    ("viewpartitions", ViewMemoryBenchmark.runPartitions),
    ("streams", StreamsBenchmark.run),
    ("redis", RedisBenchmark.run),
    ("freshness", FreshnessBenchmark.run),
    ("routing", RoutingBenchmark.run),
    ("matching", MatchingBenchmark.run),
    ("delivery", DeliveryBenchmark.run),
    ("footsteps", FootstepsBenchmark.run),
    ("footsteps-frame", FootstepsFrameBenchmark.run),
    ("poses", PosesBenchmark.run),
]
// As `snapmap` does: its in-process renders take the same allocator settings.
HeapTuning.keepFrameBlocks()
let selected = Set(CommandLine.arguments.dropFirst())
let unknown = selected.subtracting(benchmarks.map(\.name))
guard unknown.isEmpty else {
    FileHandle.standardError.write(Data("unknown benchmark \(unknown.sorted().joined(separator: ", ")); the benchmarks are \(benchmarks.map(\.name).joined(separator: ", "))\n".utf8))
    exit(2)
}
var failed: [String] = []
for benchmark in benchmarks where selected.isEmpty || selected.contains(benchmark.name) {
    do {
        print(try benchmark.run())
    } catch let partial as PartialBenchmark {
        print(partial.text)
        FileHandle.standardError.write(Data("\(benchmark.name): \(partial)\n".utf8))
        failed.append(benchmark.name)
    } catch {
        FileHandle.standardError.write(Data("\(benchmark.name): failed: \(error)\n".utf8))
        failed.append(benchmark.name)
    }
}
if !failed.isEmpty {
    FileHandle.standardError.write(Data("benchmarks that failed: \(failed.joined(separator: ", "))\n".utf8))
    exit(1)
}
