/// Sign-in tokens: 256 random bits shown once as 64 hex digits, stored only as their SHA-256.
extension LiveMapService {
    public static let tokenLength = 64

    /// Mints a token for a person and stores its hash; the token itself is returned once and kept nowhere.
    public func mintToken(for id: String) throws -> String {
        let person = try person(id)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let token = bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        try store.addToken(hash: SHA256.hex(Array(token.utf8)), for: person.id)
        return token
    }

    /// Revokes every token of a person; returns how many there were.
    @discardableResult
    public func revokeTokens(of id: String) throws -> Int {
        try store.revokeTokens(of: try person(id).id)
    }

    /// The person a token signs in, or nil for a malformed, unknown or revoked one (all alike).
    public func authenticate(_ token: String) throws -> PersonID? {
        guard token.utf8.count == Self.tokenLength, token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return try store.tokenOwner(hash: SHA256.hex(Array(token.utf8)))
    }
}
