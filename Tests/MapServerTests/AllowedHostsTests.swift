import Foundation
import Testing
@testable import MapServer

@Suite("The host names private answers are given under")
struct AllowedHostsTests {
    @Test(arguments: ["127.0.0.1", "127.0.0.2", "127.255.255.254", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"])
    func loopbackAddressesAnswerUnderTheirOwnNamesOnly(address: String) throws {
        #expect(AllowedHosts.isLoopback(address))
        let names = try #require(try AllowedHosts.resolve(listeningOn: address, names: nil, anyHost: false))
        #expect(names.isSuperset(of: AllowedHosts.loopbackNames) && names.count <= 4 && !names.contains("evil.example"))
        #expect(names.contains(address.contains(":") ? "[\(address)]" : address), "the address itself, as a Host header writes it")
    }

    @Test(arguments: ["0.0.0.0", "::", "10.0.0.1", "192.0.2.1", "128.0.0.1", "126.255.255.255", "::2", "::ffff:10.0.0.1", "localhost", ""])
    func everyOtherAddressNeedsNamesOrTheOptOut(address: String) throws {
        #expect(!AllowedHosts.isLoopback(address))
        #expect(throws: AllowedHosts.Refusal.self) { try AllowedHosts.resolve(listeningOn: address, names: nil, anyHost: false) }
        #expect(try AllowedHosts.resolve(listeningOn: address, names: "Map.Example.com, [2001:DB8::1]", anyHost: false) == ["map.example.com", "[2001:db8::1]"])
        #expect(try AllowedHosts.resolve(listeningOn: address, names: nil, anyHost: true) == nil, "--any-host: every name, as asked")
    }

    /// The Host header's name as the reading by Unicode's rules gives it (lowercased, port cut, brackets kept).
    static func referenceName(_ host: String) -> String {
        let host = host.lowercased()
        if host.hasPrefix("[") { return String(host.prefix { $0 != "]" }) + "]" }
        return String(host.prefix { $0 != ":" })
    }

    @Test(arguments: ["localhost:8080", "LocalHost", "127.0.0.1:1", "[::1]:8080", "[::1]", "[::1", "Map.Example.COM", "", ":80", "a:b:c",
                      "ÉCOLE.example:80", "[FE80::1%25ETH0]:9", "xn--Bcher-kva.example", "İstanbul.example", "tab\tname"])
    func aHostHeadersNameIsWhatUnicodesRulesGive(host: String) {
        #expect(MapAPI.hostName(host) == Self.referenceName(host))
    }

    @Test func noHostHeaderIsNoName() {
        #expect(MapAPI.hostName(nil) == "")
    }
}
