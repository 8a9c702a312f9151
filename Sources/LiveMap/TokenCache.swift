import Foundation

/// Sign-in tokens resolved from memory: a token's hash to its person, for the view to answer `tokenOwner` without the
/// store. Only sessions change it: a sign-out, a revocation or a deletion applied by the view (made here, or heard on
/// the bus or the change log) forgets that person's tokens and moves the session stamp, and a token read from the
/// store is kept only while the stamp is the one read before that read, so a token revoked meanwhile is never kept.
/// Unknown tokens are not kept (each asks the store). At most `capacity` tokens (about 200 bytes each); a full cache
/// is emptied and fills again from the store.
final class TokenCache: @unchecked Sendable {
    static let defaultCapacity = 250_000

    let capacity: Int
    private let lock = NSLock()
    private var owners: [String: PersonID] = [:]
    private var hashes: [PersonID: [String]] = [:]
    private var sessionStamp: UInt64 = 0

    init(capacity: Int = TokenCache.defaultCapacity) {
        self.capacity = capacity
    }

    /// The person a kept token signs in; nil when it is not kept.
    func owner(of hash: String) -> PersonID? {
        lock.withLock { owners[hash] }
    }

    /// Read before asking the store for a token, and handed to `keep` with what it answered.
    var stamp: UInt64 { lock.withLock { sessionStamp } }

    /// Keeps `hash` as signing in `person`, unless a session changed since `stamp` was read.
    func keep(_ hash: String, for person: PersonID, readAt stamp: UInt64) {
        lock.withLock {
            guard stamp == sessionStamp, owners[hash] == nil else { return }
            if owners.count >= capacity {
                owners.removeAll(keepingCapacity: true)
                hashes.removeAll(keepingCapacity: true)
            }
            owners[hash] = person
            hashes[person, default: []].append(hash)
        }
    }

    /// Forgets every token of `person` (signed out, revoked or deleted).
    func forget(_ person: PersonID) {
        lock.withLock {
            sessionStamp += 1
            for hash in hashes.removeValue(forKey: person) ?? [] { owners[hash] = nil }
        }
    }

    /// Forgets one token, whoever it signed in (a sign-out whose owner the store could not say).
    func forget(hash: String) {
        lock.withLock {
            sessionStamp += 1
            guard let person = owners.removeValue(forKey: hash) else { return }
            hashes[person]?.removeAll { $0 == hash }
            if hashes[person]?.isEmpty == true { hashes[person] = nil }
        }
    }

    /// Forgets everything (the view loaded again: messages may have been lost).
    func forgetAll() {
        lock.withLock {
            sessionStamp += 1
            owners.removeAll()
            hashes.removeAll()
        }
    }

    /// How many tokens are kept.
    var count: Int { lock.withLock { owners.count } }
}
