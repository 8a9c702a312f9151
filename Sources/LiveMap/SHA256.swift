import CCrypto

/// SHA-256 (FIPS 180-4) by OpenSSL's EVP interface, for storing sign-in tokens as hashes (Foundation on Linux has none).
public enum SHA256 {
    /// OpenSSL's SHA-256, fetched once. Handed `EVP_sha256()` instead, OpenSSL 3 fetches the algorithm again at every
    /// digest (under its method store's lock): 0.72 µs of CPU a 64-byte digest against 0.24 µs (measured here).
    nonisolated(unsafe) private static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// The 32-byte digest of `message`.
    public static func digest(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = message.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, &length, algorithm ?? EVP_sha256(), nil) }
        precondition(done == 1 && length == 32, "OpenSSL's SHA-256 failed")
        return Array(digest.prefix(32))
    }

    /// The digest of `message` in lower-case hex (64 characters), as tokens are stored.
    public static func hex(_ message: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        let digest = digest(message)
        return String(unsafeUninitializedCapacity: 2 * digest.count) { text in
            for (index, byte) in digest.enumerated() {
                text[2 * index] = digits[Int(byte >> 4)]
                text[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return 2 * digest.count
        }
    }
}

extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
