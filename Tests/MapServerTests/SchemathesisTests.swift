import Foundation
import ServerTestSupport
import Testing

/// schemathesis (PyPI, installed into `.build/python` by the set-up) against a seeded `snapmap serve` on loopback,
/// signed in as Sam: its generated requests (valid and invalid), the stateful sequences the contract's links make
/// (ask a friend then list them, send a location then read the layout), and its default checks over every
/// operation. Three operations are left out, each for a reason of its own: the event stream never ends, and signing
/// out or deleting the account would end the session every other request is made with (the client's tests cover
/// all three against a live server).
@Suite("schemathesis finds nothing against the contract")
struct SchemathesisTests {
    static let executable = Contract.root.appendingPathComponent(".build/python/bin/schemathesis")
    /// Cases per operation and phase: enough to reach every parameter's edges, few enough for about a minute. A
    /// request may take long the first time (the base map, the tracking map and the glyphs are loaded on first use, in
    /// a debug build), so it has two minutes before schemathesis gives up on it.
    static let examples = ProcessInfo.processInfo.environment["SNAPMAP_SCHEMATHESIS_EXAMPLES"] ?? "8"
    static let seed = ProcessInfo.processInfo.environment["SNAPMAP_SCHEMATHESIS_SEED"] ?? "32"

    @Test(.timeLimit(.minutes(10))) func schemathesisReportsNothing() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable.path), "run `make setup`: it installs schemathesis")
        let server = try ServerFixture()
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-schemathesis-\(UUID().uuidString)")
        let result = try TestProcess.run(Self.executable, [
            "--config-file", Contract.root.appendingPathComponent("Tests/tools/schemathesis.toml").path, "run", Contract.file.path, "--url", server.base.absoluteString, "--header", "Authorization: Bearer \(server.token)",
            "--max-examples", Self.examples, "--request-timeout", "120", "--seed", Self.seed,
            "--exclude-operation-id", "events", "--exclude-operation-id", "signOut", "--exclude-operation-id", "deleteAccount",
            "--report-dir", reports.path, "--no-color", "--generation-database", "none",
        ], unset: ["SCHEMATHESIS_HOOKS"], directory: reports.deletingLastPathComponent(), bound: .seconds(600))
        let text = result.output + result.errorOutput
        #expect(result.succeeded, "schemathesis found something:\n\(text.suffix(20_000))")
        // It ran what it was given: every operation but the three left out, and the links between them.
        #expect(text.contains("Stateful"), "\(text.suffix(2_000))")
    }
}
