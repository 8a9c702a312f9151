import Foundation
import ServerTestSupport
import Testing

/// The bytes of one frame, one raster tile, one vector tile and one layout, made by the built `snapmap` in fresh
/// processes, against digests committed in `Tests/digests/outputs.sha256` (`sha256sum`'s format, checked by it): the
/// same inputs give the same bytes from run to run, which ETags rely on, not only twice within one process. A change
/// that means to draw differently commits new digests with it.
@Suite("Committed digests, checked in fresh processes")
struct DigestTests {
    static let digests = Snapmap.packageRoot.appendingPathComponent("Tests/digests/outputs.sha256")

    @Test func freshProcessesMakeTheCommittedBytes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-digests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = ["SNAPMAP_DB": directory.appendingPathComponent("live.db").path]
        let commands = [
            ["render", "--layers", "base,heat,pins", "--clock", "scene", "--out", "frame.png", "--layout-out", "layout.json"],
            ["tile", "15/9652/12319", "--out", "tile.png"],
            ["tiles", "--bbox", "-73.96,40.71,-73.95,40.72", "--zoom", "15-15", "--format", "mvt", "--out", "mvt"],
        ]
        for arguments in commands {
            let paths = Set(["--out", "--layout-out"])
            let placed = arguments.enumerated().map { index, argument in
                index > 0 && paths.contains(arguments[index - 1]) ? directory.appendingPathComponent(argument).path : argument
            }
            let result = try Snapmap.run(placed, environment: store)
            try #require(result.succeeded, "snapmap \(arguments.joined(separator: " ")): \(result.errorOutput)")
        }
        let check = try TestProcess.run(program: "sha256sum", ["--check", "--strict", Self.digests.path], directory: directory)
        #expect(check.succeeded, "\(check.output)\(check.errorOutput)")
        #expect(check.output.split(separator: "\n").count == 4, "all four outputs were checked: \(check.output)")
    }
}
