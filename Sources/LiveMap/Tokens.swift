/// Sign-in tokens: 256 random bits shown once as 64 hex digits, stored only as their SHA-256. Every change to a
/// person's tokens is announced (`LiveChange.sessions`), so streams opened with a revoked token end at once.
extension LiveMapService {
    public static let tokenLength = 64

    /// Mints a token for a person and stores its hash; the token itself is returned once and kept nowhere.
    public func mintToken(for id: String) throws -> String {
        let person = try person(id)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let token = bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        try store.addToken(hash: Self.tokenHash(token), for: person.id)
        return token
    }

    /// Revokes every token of a person; returns how many there were.
    @discardableResult
    public func revokeTokens(of id: String) throws -> Int {
        let personID = try person(id).id
        let count = try store.revokeTokens(of: personID)
        notify(.sessions(personID))
        return count
    }

    /// Signs one phone out: revokes the token with this hash (the others of its person stay).
    public func signOut(tokenHash: String) throws {
        guard let owner = try store.removeToken(hash: tokenHash) else { return }
        notify(.sessions(owner))
    }

    /// The person a token signs in, or nil for a malformed, unknown or revoked one (all alike).
    public func authenticate(_ token: String) throws -> PersonID? {
        guard let hash = Self.tokenHash(ifWellFormed: token) else { return nil }
        return try store.tokenOwner(hash: hash)
    }

    /// Whether the token with this hash still signs in `person` (an open stream asks after `.sessions`).
    public func signsIn(tokenHash: String, _ person: PersonID) throws -> Bool {
        try store.tokenOwner(hash: tokenHash) == person
    }

    /// The stored form of a token: its SHA-256 in hex.
    public static func tokenHash(_ token: String) -> String {
        SHA256.hex(Array(token.utf8))
    }

    /// The hash of a token shaped as tokens are (64 lowercase hex digits); nil for anything else.
    public static func tokenHash(ifWellFormed token: String) -> String? {
        guard token.utf8.count == tokenLength, token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return tokenHash(token)
    }

    /// Removes a person with everything of theirs (fixes, asks both ways, blocks both ways, tokens, settings,
    /// Snaps); their streams end and their friends' maps drop them at once. The id is then free, as if never used.
    public func removePerson(_ id: String) throws {
        let personID = try PersonID(id)
        guard try store.removePerson(personID) else { throw LiveMapError.notFound(id: id) }
        notify(.removed(personID))
    }

    /// How often a server finishes the removals a failure left part way.
    public static let removalRetrySeconds = 30

    /// Finishes the removals a failure left part way (`LiveStore.finishInterruptedRemovals`), as `removePerson` does.
    public func finishInterruptedRemovals() throws {
        for id in try store.finishInterruptedRemovals() { notify(.removed(id)) }
    }
}
