import Foundation

/// A token bucket per key (a person): `rate` requests a second on average, bursts up to `burst`. Measured on
/// the monotonic clock, never the server's settable one.
final class RateLimiter: @unchecked Sendable {
    /// Past this many keys, buckets that have refilled completely are forgotten.
    static let maxKeys = 100_000

    let rate: Double
    let burst: Double
    private let lock = NSLock()
    private var buckets: [String: (tokens: Double, at: UInt64)] = [:]

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
    }

    /// Takes one token for `key`; nil when allowed, else the seconds until the next token.
    func take(_ key: String) -> Double? {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        defer { lock.unlock() }
        var bucket = buckets[key] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + Double(now - bucket.at) / 1e9 * rate)
        bucket.at = now
        guard bucket.tokens >= 1 else {
            buckets[key] = bucket
            return (1 - bucket.tokens) / rate
        }
        bucket.tokens -= 1
        buckets[key] = bucket
        if buckets.count > Self.maxKeys {
            buckets = buckets.filter { $0.value.tokens + Double(now - $0.value.at) / 1e9 * rate < burst }
        }
        return nil
    }

    /// Forgets `key`'s bucket (a deleted account's), so whoever takes the id next starts with a full one.
    func forget(_ key: String) {
        lock.withLock { _ = buckets.removeValue(forKey: key) }
    }
}
