import Dispatch
import Foundation
import GeoCore
import HeatMap
import LiveMap

/// Feeds a glow from the live store: the Snaps of the window ending at `clock()` (received when taken),
/// then every Snap posted, received at `clock()` then, so it is drawn from the next epoch on; a removed person's Snaps
/// leave it from the next epoch on, as any change does. When the bus may have lost messages, the glow is made to
/// match the store from the next epoch on, so a deletion this replica never heard of still takes the Snaps out.
public enum LiveGlow {
    public static func connect(_ glow: SnapAggregate, live: LiveMapService, clock: @escaping @Sendable () -> Date) throws {
        live.observeSnaps { snap in glow.add(posted(snap, receivedAt: clock())) }
        live.observe { change in
            if case .removed(let person) = change { glow.remove(poster: person.rawValue, from: glow.settings.epoch(of: clock()) + 1) }
        }
        let now = clock()
        for snap in try live.store.snaps(since: now.addingTimeInterval(-LiveMapService.snapWindow)) {
            glow.add(posted(snap, receivedAt: min(snap.takenAt, now)))
        }
        let resync = GlowResync(glow: glow, live: live, clock: clock)
        live.observeResync { resync.ask() }
    }

    /// A Snap as the glow sees it (mercator, and the poster only as a name to count), received at `receivedAt`
    /// (when taken, when not given).
    public static func posted(_ snap: PublicSnap, receivedAt: Date? = nil) -> PostedSnap {
        PostedSnap(poster: snap.person.rawValue, point: WebMercator.projectUnchecked(lat: snap.coordinate.lat, lon: snap.coordinate.lon),
                   takenAt: snap.takenAt, receivedAt: receivedAt)
    }
}

/// Re-reads the store's Snaps into the glow after a resync, one read at a time: resyncs asked for during a read are
/// answered by one more read after it; a read that fails is tried again every `retryDelay` until one succeeds.
final class GlowResync: @unchecked Sendable {
    static let retryDelay = DispatchTimeInterval.seconds(1)

    private let glow: SnapAggregate
    private let live: LiveMapService
    private let clock: @Sendable () -> Date
    private let queue = DispatchQueue(label: "snapmap-glow-resync")
    private let lock = NSLock()
    private var asked = false

    init(glow: SnapAggregate, live: LiveMapService, clock: @escaping @Sendable () -> Date) {
        (self.glow, self.live, self.clock) = (glow, live, clock)
    }

    /// Queues a read unless one not yet begun is queued.
    func ask() {
        let queued: Bool = lock.withLock {
            defer { asked = true }
            return asked
        }
        if !queued { queue.async { self.read() } }
    }

    private func read() {
        lock.withLock { asked = false }
        let now = clock()
        let next = glow.settings.epoch(of: now) + 1
        do {
            let snaps = try live.store.snaps(since: glow.settings.windowStart(of: next))
            glow.reconcile(with: snaps.map { LiveGlow.posted($0) }, from: next)
        } catch {
            queue.asyncAfter(deadline: .now() + Self.retryDelay) { self.ask() }
        }
    }
}
