import Foundation
import Testing

/// `snapmap serve` off loopback needs the names it answers under (DNS rebinding), and says so before it opens
/// anything. Every case here names a data directory that does not exist: a server that got past the host check
/// stops there with status 1, so no test ever binds an address.
@Suite("snapmap serve: the host names private answers are given under")
struct ServeHostCLITests {
    private let cli = CLITests()
    private static let missingData = ["--data", "/nonexistent/snapmap-data", "--port", "0"]

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.1", "10.0.0.7", "2001:db8::1", "::ffff:192.0.2.1"])
    func aNonLoopbackAddressWithoutAllowedHostsIsRefusedAtStartUp(address: String) throws {
        let result = try cli.runArray(["serve", "--host", address] + Self.missingData)
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("--host \(address) is not a loopback address") && result.stderr.contains("--allowed-hosts NAMES")
                && result.stderr.contains("--any-host") && result.stderr.contains("DNS rebinding"), "\(result.stderr)")
        #expect(!result.stderr.contains("/nonexistent/snapmap-data"), "refused before the data (or any socket) is opened")
    }

    @Test(arguments: [["--host", "0.0.0.0", "--allowed-hosts", "map.example.com,[2001:db8::1]"], ["--host", "0.0.0.0", "--any-host"],
                      ["--host", "127.0.0.2"], ["--host", "::1"], ["--host", "::ffff:127.0.0.1"]])
    func namedHostsAnExplicitOptOutOrLoopbackPassTheCheck(options: [String]) throws {
        let result = try cli.runArray(["serve"] + options + Self.missingData)
        #expect(result.status == 1 && result.stderr.contains("/nonexistent/snapmap-data"), "got past the host check: \(result.stderr)")
    }

    @Test(arguments: [
        (["--allowed-hosts", ""], "is not a host name"), (["--allowed-hosts", "map.example.com:8080"], "without ports"),
        (["--allowed-hosts", "a.example,,b.example"], "is not a host name"), (["--allowed-hosts", "[not-v6]"], "is not a host name"),
        (["--allowed-hosts", "map.example.com", "--any-host"], "contradict"),
    ])
    func badAllowedHostsAreUsageErrors(options: [String], expected: String) throws {
        let result = try cli.runArray(["serve", "--host", "0.0.0.0"] + options + Self.missingData)
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.contains(expected), "\(result.stderr)")
    }
}
