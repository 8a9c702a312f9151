import Foundation
import Synchronization
import Testing
@testable import MapServer

/// The token buckets against a model of them, and against readings of the clock that arrive out of order.
@Suite("Rate limits: token buckets")
struct RateLimiterTests {
    /// A clock the test moves by hand.
    final class HandClock: Sendable {
        let reading = Mutex<UInt64>(1_000_000_000_000)
        func set(_ nanoseconds: UInt64) { reading.withLock { $0 = nanoseconds } }
        var now: UInt64 { reading.withLock { $0 } }
    }

    @Test func aBurstThenOneTokenPerIntervalAsTheModelSays() {
        let clock = HandClock()
        let limiter = RateLimiter(rate: 4, burst: 3, clock: { clock.now })
        let start = clock.now
        // The model: a full bucket of 3, refilled at 4 a second, capped at 3.
        var (tokens, at) = (3.0, start)
        for step in 0..<200 {
            let now = start + UInt64(step) * 37_000_000
            clock.set(now)
            tokens = min(3, tokens + Double(now - at) / 1e9 * 4)
            at = now
            let expected: Double? = tokens >= 1 ? nil : (1 - tokens) / 4
            if expected == nil { tokens -= 1 }
            let answer = limiter.take("sam")
            #expect((answer == nil) == (expected == nil), "step \(step)")
            if let answer, let expected { #expect(abs(answer - expected) < 1e-9, "step \(step)") }
        }
    }

    /// A reading earlier than the bucket's last (another request read the clock first and took the lock second) adds
    /// no token and stops nothing: the server once crashed here on the overflow.
    @Test func aReadingEarlierThanTheBucketsLastAddsNothingAndStopsNothing() {
        let clock = HandClock()
        let limiter = RateLimiter(rate: 1, burst: 1, clock: { clock.now })
        let late = clock.now
        #expect(limiter.take("sam") == nil)
        clock.set(late - 5_000_000_000)
        let wait = limiter.take("sam")
        #expect(wait.map { abs($0 - 1) < 1e-9 } == true, "an empty bucket refills from its last reading, not from an earlier one: \(String(describing: wait))")
        clock.set(late + 1_000_000_000)
        #expect(limiter.take("sam") == nil, "one second after the last reading, a token")
    }
}
