import Foundation

/// The Host names a server gives private answers under. A browser page on any name that resolves to the server
/// (DNS rebinding) sends its own name as Host, so answering only under the server's own names keeps private data
/// from it. There is no safe default off loopback: the operator names the hosts, or opts out in so many words.
public enum AllowedHosts {
    /// The names of this machine's loopback interface.
    public static let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    /// Why the host names cannot be settled; the message names the options (a usage error).
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// The names for a server listening on `address`: `names` (comma-separated, without ports) when given; on a
    /// loopback address its own names; nil (any name: unsafe) only when `anyHost`. Anything else is refused.
    public static func resolve(listeningOn address: String, names: String?, anyHost: Bool) throws(Refusal) -> Set<String>? {
        if let names {
            guard !anyHost else { throw Refusal(description: "--allowed-hosts and --any-host contradict each other: give one") }
            return try parse(names)
        }
        if anyHost { return nil }
        guard isLoopback(address) else {
            throw Refusal(description: "--host \(address) is not a loopback address: give --allowed-hosts NAMES, the host names clients reach "
                          + "this server by (private answers under any other name are refused, so a page on a name that resolves here by "
                          + "DNS rebinding learns nothing), or --any-host to answer under every name (unsafe)")
        }
        return loopbackNames.union([address.contains(":") ? "[\(address.lowercased())]" : address])
    }

    /// Whether `address` (an IPv4 or IPv6 literal) is a loopback address: 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104.
    public static func isLoopback(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        return bytes[..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }

    /// Comma-separated host names, lowercased: letters, digits, dots and dashes, or a bracketed IPv6 literal.
    static func parse(_ names: String) throws(Refusal) -> Set<String> {
        let list = names.lowercased().split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for name in list where !isName(name) {
            throw Refusal(description: "--allowed-hosts: \"\(name.prefix(80))\" is not a host name; give names such as map.example.com or "
                          + "[2001:db8::1], comma-separated, without ports")
        }
        return Set(list)
    }

    private static func isName(_ name: String) -> Bool {
        guard (1...255).contains(name.utf8.count) else { return false }
        if name.hasPrefix("[") && name.hasSuffix("]") {
            var v6 = in6_addr()
            return inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &v6) == 1
        }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }
}
