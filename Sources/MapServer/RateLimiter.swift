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

    /// The monotonic clock in nanoseconds (a test passes its own).
    private let clock: @Sendable () -> UInt64

    init(rate: Double, burst: Double, clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.rate = rate
        self.burst = burst
        self.clock = clock
    }

    /// Takes one token for `key`; nil when allowed, else the seconds until the next token.
    /// The clock is read under the lock, so a bucket's time never runs backwards: two requests of one person at once
    /// once read it in one order and took the lock in the other, and the subtraction's overflow stopped the server.
    func take(_ key: String) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        let now = clock()
        var bucket = buckets[key] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + Self.seconds(from: bucket.at, to: now) * rate)
        bucket.at = max(bucket.at, now)
        guard bucket.tokens >= 1 else {
            buckets[key] = bucket
            return (1 - bucket.tokens) / rate
        }
        bucket.tokens -= 1
        buckets[key] = bucket
        if buckets.count > Self.maxKeys {
            buckets = buckets.filter { $0.value.tokens + Self.seconds(from: $0.value.at, to: now) * rate < burst }
        }
        return nil
    }

    /// The seconds from `start` to `end` on the monotonic clock; none when `end` is not later.
    private static func seconds(from start: UInt64, to end: UInt64) -> Double {
        end > start ? Double(end - start) / 1e9 : 0
    }

    /// Forgets `key`'s bucket (a deleted account's), so whoever takes the id next starts with a full one.
    func forget(_ key: String) {
        lock.withLock { _ = buckets.removeValue(forKey: key) }
    }
}
