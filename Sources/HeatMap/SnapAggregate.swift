import Foundation
import GeoCore

/// A public Snap as the glow sees it: who posted it (only to count distinct people and cap each one's weight),
/// where, when it was taken, and when the server received it (which decides the first epoch that draws it).
public struct PostedSnap: Hashable, Sendable {
    public let poster: String
    public let point: MercatorPoint
    public let takenAt: Date
    public let receivedAt: Date

    /// A Snap received at `receivedAt`, or when it was taken (a Snap loaded from the store) when not given.
    public init(poster: String, point: MercatorPoint, takenAt: Date, receivedAt: Date? = nil) {
        self.poster = poster
        self.point = point
        self.takenAt = takenAt
        self.receivedAt = receivedAt ?? takenAt
    }
}

/// The live glow's aggregate: each Snap is added in O(1) to the total of its poster, cell, hour taken and epoch
/// received; what is drawn is a `GlowSnapshot` of it taken at an epoch's start, made once per epoch.
///
/// Snaps weigh 2^(−age / half-life), their age taken at the end of the hour the epoch starts in; a Snap counts
/// while its hour is that one or one of the `windowHours − 1` before. The cells that are counted are the cells
/// that are drawn (z18, ~116 m at New York): a cell shows only with at least `minimumPosters` distinct people in
/// the window, and one person's weight in it is capped. A Snap received during an epoch is drawn from the next
/// one on. Weights are kept in fixed point, so totals do not depend on the order Snaps arrive in.
public final class SnapAggregate: @unchecked Sendable {
    public struct Settings: Hashable, Sendable {
        public let halfLifeHours: Double
        public let minimumPosters: Int
        /// The most one person weighs in one cell, in Snaps taken at the end of the current hour (each weighs 1).
        public let maxWeightPerPoster: Double
        /// How long the drawn glow stays the same, and how many hours a Snap counts for.
        public let epochSeconds: Int
        public let windowHours: Int
        /// Cells are tiles of this zoom: counted, capped and drawn alike.
        public let cellZoom: Int

        public init(halfLifeHours: Double, minimumPosters: Int, maxWeightPerPoster: Double, epochSeconds: Int, windowHours: Int = 24, cellZoom: Int = 18) {
            self.halfLifeHours = halfLifeHours
            self.minimumPosters = minimumPosters
            self.maxWeightPerPoster = maxWeightPerPoster
            self.epochSeconds = epochSeconds
            self.windowHours = windowHours
            self.cellZoom = cellZoom
        }

        /// The epoch a time falls in, and the instant an epoch starts at.
        public func epoch(of date: Date) -> Int { Int((date.timeIntervalSince1970 / Double(epochSeconds)).rounded(.down)) }
        public func start(of epoch: Int) -> Date { Date(timeIntervalSince1970: Double(epoch) * Double(epochSeconds)) }
        /// The start of the oldest hour a snapshot of `epoch` counts.
        public func windowStart(of epoch: Int) -> Date {
            Date(timeIntervalSince1970: Double(SnapAggregate.hour(of: start(of: epoch)) - windowHours + 1) * 3600)
        }
        /// The first epoch whose start is at or after `date`: the first to draw a Snap received then.
        func firstEpoch(receiving date: Date) -> Int { Int((date.timeIntervalSince1970 / Double(epochSeconds)).rounded(.up)) }
    }

    /// One person's Snaps in one cell, taken in one hour and first drawn in one epoch.
    struct Contribution: Hashable {
        let poster: String
        let hour: Int
        let epoch: Int
    }

    /// Weights relative to their hour's start (1 … 2^(1 / half-life)) are kept in units of 2^−32.
    static let fixedPointOne = 4_294_967_296.0
    /// Snapshots kept for the epochs last drawn.
    static let keptSnapshots = 4

    public let settings: Settings
    private let lock = NSLock()
    private var cells: [UInt64: [Contribution: UInt64]] = [:]
    /// Posters to forget, each from the epoch its removal takes effect.
    private var removals: [String: Int] = [:]
    private var snapshots: [Int: GlowSnapshot] = [:]
    /// The latest epoch a snapshot was asked for, and how many Snaps were added since that it would draw: a
    /// snapshot made outside the lock is kept only when none was.
    private var latestAsked = Int.min
    private var addsDrawnByAsked = 0

    public init(settings: Settings) {
        self.settings = settings
    }

    /// The hour index of a time (hours since 1970).
    public static func hour(of date: Date) -> Int { Int((date.timeIntervalSince1970 / 3600).rounded(.down)) }

    /// A Snap's weight relative to its hour's start, in fixed point.
    private func weight(takenAt: Date, hour: Int) -> UInt64 {
        UInt64((pow(2, (takenAt.timeIntervalSince1970 - Double(hour) * 3600) / 3600 / settings.halfLifeHours) * Self.fixedPointOne).rounded())
    }

    /// Adds one Snap: O(1). A snapshot already taken of an epoch that draws it is dropped, to be taken again.
    public func add(_ snap: PostedSnap) {
        let hour = Self.hour(of: snap.takenAt)
        let weight = weight(takenAt: snap.takenAt, hour: hour)
        let contribution = Contribution(poster: snap.poster, hour: hour, epoch: settings.firstEpoch(receiving: snap.receivedAt))
        let key = cellKey(of: snap.point)
        lock.lock()
        defer { lock.unlock() }
        cells[key, default: [:]][contribution, default: 0] += weight
        if contribution.epoch <= latestAsked { addsDrawnByAsked += 1 }
        if snapshots.keys.contains(where: { $0 >= contribution.epoch }) { snapshots = snapshots.filter { $0.key < contribution.epoch } }
    }

    /// Takes every Snap of one poster out (a deleted account) from the epoch `from` on, as the glow changes: the
    /// epochs before it draw as they did (so no tile dates the removal to the second), and once a snapshot of
    /// `from` or later is made the poster's Snaps are forgotten.
    public func remove(poster: String, from epoch: Int) {
        lock.withLock {
            removals[poster] = min(removals[poster] ?? .max, epoch)
            snapshots = snapshots.filter { $0.key < epoch }
            addsDrawnByAsked += 1
        }
    }

    /// Makes what is held match `snaps` (every Snap the store has from `settings.windowStart(of: epoch)` on) from
    /// epoch `from` on, after a bus that may have lost messages: a poster with none there leaves (a removal not
    /// heard of), and each poster's total per cell and hour that is short grows by what it lacks (Snaps not heard
    /// of). Earlier epochs draw as they did. Returns how many posters left and how many totals grew.
    @discardableResult
    public func reconcile(with snaps: [PostedSnap], from epoch: Int) -> (removed: Int, grown: Int) {
        let oldest = Self.hour(of: settings.windowStart(of: epoch))
        var wanted: [UInt64: [PosterHour: UInt64]] = [:]
        for snap in snaps {
            let hour = Self.hour(of: snap.takenAt)
            guard hour >= oldest else { continue }
            wanted[cellKey(of: snap.point), default: [:]][PosterHour(poster: snap.poster, hour: hour), default: 0] += weight(takenAt: snap.takenAt, hour: hour)
        }
        let posters = Set(snaps.map(\.poster))
        return lock.withLock {
            let gone = Set(cells.values.flatMap { $0.keys.map(\.poster) }).subtracting(posters)
            var grown = 0
            for (key, totals) in wanted {
                var held: [PosterHour: UInt64] = [:]
                for (contribution, weight) in cells[key] ?? [:] { held[PosterHour(poster: contribution.poster, hour: contribution.hour), default: 0] += weight }
                for (posterHour, total) in totals where total > held[posterHour, default: 0] {
                    cells[key, default: [:]][Contribution(poster: posterHour.poster, hour: posterHour.hour, epoch: epoch), default: 0] += total - held[posterHour, default: 0]
                    grown += 1
                }
            }
            for poster in gone { removals[poster] = min(removals[poster] ?? .max, epoch) }
            if !gone.isEmpty || grown > 0 {
                snapshots = snapshots.filter { $0.key < epoch }
                addsDrawnByAsked += 1
            }
            return (gone.count, grown)
        }
    }

    /// A poster's Snaps in one cell taken in one hour, whatever epoch drew them first.
    private struct PosterHour: Hashable {
        let poster: String
        let hour: Int
    }

    /// The cells a snapshot of `epoch` draws from: without the posters removed by then, who are forgotten.
    private func cellsDrawn(at epoch: Int) -> [UInt64: [Contribution: UInt64]] {
        let gone = Set(removals.filter { $0.value <= epoch }.keys)
        guard !gone.isEmpty else { return cells }
        cells = cells.compactMapValues { contributions in
            let kept = contributions.filter { !gone.contains($0.key.poster) }
            return kept.isEmpty ? nil : kept
        }
        for poster in gone { removals[poster] = nil }
        return cells
    }

    /// What the glow draws at `now`: the snapshot of the epoch `now` falls in (the same for every `now` in it).
    /// It is made outside the lock, so Snaps keep arriving meanwhile; made again if one of them is for it.
    public func snapshot(at now: Date) -> GlowSnapshot {
        let epoch = settings.epoch(of: now)
        while true {
            let (kept, held, adds) = lock.withLock { () -> (GlowSnapshot?, [UInt64: [Contribution: UInt64]], Int) in
                latestAsked = max(latestAsked, epoch)
                if let kept = snapshots[epoch] { return (kept, [:], 0) }
                return (nil, cellsDrawn(at: epoch), addsDrawnByAsked)
            }
            if let kept { return kept }
            let made = GlowSnapshot(epoch: epoch, cells: held, settings: settings)
            let stored = lock.withLock { () -> Bool in
                guard adds == addsDrawnByAsked else { return false }
                snapshots[epoch] = made
                if snapshots.count > Self.keptSnapshots, let oldest = snapshots.keys.min() { snapshots[oldest] = nil }
                return true
            }
            if stored { return made }
        }
    }

    /// The drawn points inside `bounds` at `now`.
    public func points(in bounds: MercatorRect, at now: Date) -> [HeatPoint] {
        snapshot(at: now).points(in: bounds)
    }

    /// Forgets every hour before the window of the epoch `now` falls in (so the snapshot of that epoch and later
    /// ones stay the same); returns how many contributions went away.
    @discardableResult
    public func prune(at now: Date) -> Int {
        let startHour = Self.hour(of: settings.start(of: settings.epoch(of: now)))
        let oldest = Self.hour(of: settings.windowStart(of: settings.epoch(of: now)))
        lock.lock()
        defer { lock.unlock() }
        let before = contributionCount
        cells = cells.compactMapValues { contributions in
            let kept = contributions.filter { $0.key.hour >= oldest }
            return kept.isEmpty ? nil : kept
        }
        snapshots = snapshots.filter { Self.hour(of: settings.start(of: $0.key)) >= startHour }
        return before - contributionCount
    }

    /// The number of cells with Snaps held, drawn or not (for tests and health).
    public var cellCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return cells.count
    }

    private var contributionCount: Int { cells.values.reduce(0) { $0 + $1.count } }

    private func cellKey(of point: MercatorPoint) -> UInt64 {
        let count = 1 << settings.cellZoom
        let span = WebMercator.worldSize / Double(count)
        let column = min(max(Int(((point.x + WebMercator.halfWorld) / span).rounded(.down)), 0), count - 1)
        let row = min(max(Int(((WebMercator.halfWorld - point.y) / span).rounded(.down)), 0), count - 1)
        return UInt64(column) << 32 | UInt64(row)
    }

    static func unkey(_ key: UInt64) -> (Int, Int) { (Int(key >> 32), Int(key & 0xFFFF_FFFF)) }
}
