import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GeoCore
import Raster
import ServerTestSupport
import Testing
@testable import MapEngine
@testable import MapServer

/// Whatever frames are asked (any size, scale, zoom, centre and layers in range), a server stays within the memory
/// its caches and render pool are allowed: 400 scales once grew one to 1.19 GB, distinct viewports to 6.5 GB.
/// `make test` asks a seeded sample of frames up to 8 Mpx; `make faults` asks 1,000 over the whole range of the
/// release build (`SNAPMAP_MEMORY_FRAMES`, `SNAPMAP_MEMORY_SEED`, `SNAPMAP_MEMORY_RELEASE`).
@Suite("Memory stays bounded whatever frames are asked")
struct MemoryBoundTests {
    /// The shared layers, the kept canvases and the renders in flight, each at its budget: the process's whole bound.
    static let bound = MapEngine.sharedLayerBudget + FramePool.budget + RenderPool.memoryBudget

    static let environment = ProcessInfo.processInfo.environment
    static let count = Int(environment["SNAPMAP_MEMORY_FRAMES"] ?? "") ?? 20
    static let seed = UInt64(environment["SNAPMAP_MEMORY_SEED"] ?? "") ?? 28
    static let release = environment["SNAPMAP_MEMORY_RELEASE"] == "1"

    /// A frame request at random in-range parameters, of at most `maxPixels`.
    static func randomFrame(_ random: inout SplitMix64, maxPixels: Int) -> String {
        var (width, height) = (1 + Int(random.unit() * 1999), 1 + Int(random.unit() * 1999))
        let scale = 1 + (random.unit() * 3 * 1000).rounded() / 1000
        while Double(width) * scale > 8000 || Double(height) * scale > 8000 || Double(width * height) * scale * scale > Double(maxPixels) {
            (width, height) = (max(1, width * 3 / 4), max(1, height * 3 / 4))
        }
        let zoom = 10 + (random.unit() * 10 * 1000).rounded() / 1000
        let (lat, lon) = (40.70 + random.unit() * 0.03, -73.97 + random.unit() * 0.04)
        let layers = ["base", "base,heat", "base,heat,pins", "heat,pins", "base,pins"][Int(random.next() % 5)]
        return "/v1/me/frame.png?size=\(width)x\(height)&scale=\(scale)&zoom=\(zoom)&center=\(lat),\(lon)&layers=\(layers)"
    }

    /// The peak resident memory of a process, in bytes (`VmHWM`).
    static func peakResident(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")) * 1024
    }

    @Test func randomFramesKeepTheServerWithinItsBound() async throws {
        let executable = Self.release ? try #require(Snapmap.releaseExecutable, "build the release binary first") : Snapmap.executable
        let server = try ServerFixture(executable: executable)
        var random = SplitMix64(seed: Self.seed)
        let maxPixels = Self.release ? Canvas.maxPixels : MapEngine.streamedFramePixels
        let paths = (0..<Self.count).map { _ in Self.randomFrame(&random, maxPixels: maxPixels) }
        // As many at once as one person may hold on the render pool, each given all the time a loaded machine needs.
        let session = URLSession(configuration: .ephemeral)
        func status(_ path: String) async throws -> Int {
            var request = URLRequest(url: URL(string: server.base.absoluteString + path)!)
            request.setValue("Bearer " + server.token, forHTTPHeaderField: "Authorization")
            request.timeoutInterval = 900
            let (_, response) = try await session.data(for: request)
            return try #require(response as? HTTPURLResponse).statusCode
        }
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for lane in 0..<RenderPool.perPersonLimit {
                group.addTask {
                    var seen: [Int] = []
                    for path in stride(from: lane, to: paths.count, by: RenderPool.perPersonLimit).map({ paths[$0] }) {
                        seen.append(try await status(path))
                    }
                    return seen
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == Self.count && statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
        let peak = try Self.peakResident(of: server.process.processIdentifier)
        #expect(peak <= Self.bound, "peak \(peak >> 20) MB over \(Self.count) frames; bound \(Self.bound >> 20) MB")
    }
}
