import Foundation
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A store on a 2 MB file system that fills up: writes are refused with 503 (never acknowledged and lost),
/// readiness says "disk full", both recover by themselves once space is freed, and a restart on the full disk
/// says "disk full".
@Suite("Faults: a full disk")
struct FullDiskTests {
    /// A 2 MB tmpfs can be mounted here (root, and a kernel that lets this process mount).
    static let canMount: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-mount-probe-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard (try? StoreFaultTests.tool("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", probe.path])) == true else { return false }
        return (try? StoreFaultTests.tool("/bin/umount", [probe.path])) == true
    }()

    @Test(.enabled(if: FullDiskTests.canMount, "skipped: cannot mount a 2 MB tmpfs (needs root)"))
    func aFullDiskRefusesWritesSaysSoAndRecovers() async throws {
        let shared = try ServerFixture.shared.get()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try #require(try StoreFaultTests.tool("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", directory.path]))
        defer {
            _ = try? StoreFaultTests.tool("/bin/umount", ["-l", directory.path])
            try? FileManager.default.removeItem(at: directory)
        }
        let database = directory.appendingPathComponent("live.db").path
        let filler = directory.appendingPathComponent("filler").path
        let runners = try Runners(shared, database: database, count: 1)
        var server: ServerFixture? = try ServerFixture(database: database)
        let base = try #require(server?.base.absoluteString)
        var acknowledged = -1
        if await Runners.put(base: base, token: runners.tokens[0], step: 0) == 204 { acknowledged = 0 }
        Self.fill(filler)
        var statuses: [Int?] = []
        for step in 1...200 {
            let status = await Runners.put(base: base, token: runners.tokens[0], step: step)
            statuses.append(status)
            if status == 204 { acknowledged = step }
            if status == 503 { break }
            if status == 429 { try await Task.sleep(for: .milliseconds(150)) }
        }
        #expect(statuses.last == 503, "a write on the full disk is refused: \(statuses)")
        #expect(statuses.allSatisfy { [204, 429, 503].contains($0) }, "\(statuses)")
        let (ready, _, body) = try #require(try await server?.fetch("/healthz/ready"))
        #expect(ready == 503 && String(decoding: body, as: UTF8.self).contains("disk full"), "\(String(decoding: body, as: UTF8.self))")
        try FileManager.default.removeItem(atPath: filler)
        let recovered = await Faults.eventually(within: 2) {
            let status = await Runners.put(base: base, token: runners.tokens[0], step: 1000)
            return status == 204
        }
        #expect(recovered, "writes resume by themselves once space is free")
        acknowledged = 1000
        #expect(try await server?.fetch("/healthz/ready").0 == 200)
        if let process = server?.process { kill(process.processIdentifier, SIGTERM) }
        #expect(Faults.waitForExit(try #require(server?.process), seconds: Faults.stopBound))
        #expect(server?.process.terminationStatus == 0)
        server = nil
        // SQLite remakes its -shm at open; on a full disk that fails, and the message says why.
        try? FileManager.default.removeItem(atPath: database + "-shm")
        Self.fill(filler)
        let restart = try Faults.run(shared, ["serve", "--port", "0", "--db", database], timeout: 30)
        #expect(restart.status == 1 && restart.stderr.contains("disk full"), "\(restart.stderr)")
        try FileManager.default.removeItem(atPath: filler)
        #expect(try runners.lost(shared, database: database, acknowledged: [0: acknowledged]).isEmpty, "no acknowledged write lost")
    }

    /// Writes `path` until the file system has no byte left.
    static func fill(_ path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        defer { try? handle.close() }
        for size in [65_536, 4096, 512, 1] {
            let chunk = Data(repeating: 0x5A, count: size)
            while (try? handle.write(contentsOf: chunk)) != nil {}
        }
    }
}
