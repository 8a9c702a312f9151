import Foundation
import GeoCore

/// A public Snap as the glow sees it: who posted it (only to count distinct people), where, when.
public struct PostedSnap: Hashable, Sendable {
    public let poster: String
    public let point: MercatorPoint
    public let takenAt: Date

    public init(poster: String, point: MercatorPoint, takenAt: Date) {
        self.poster = poster
        self.point = point
        self.takenAt = takenAt
    }
}

/// The live glow's aggregate: per-cell counters bucketed by hour, so that a new Snap costs O(1) and neither the
/// decay nor the 24-hour window ever rescans Snaps.
///
/// Snaps weigh 2^(−age / half-life), their age taken at the end of the current hour; a Snap counts while its hour
/// is the current one or one of the `windowHours − 1` before. Weights are kept on fine cells (whose centres are
/// the glow's points); a fine cell shows only when its privacy cell (a coarser square around it) had at least
/// `minimumPosters` distinct people posting in the window, so one person's Snaps alone are never seen.
public final class SnapAggregate: @unchecked Sendable {
    public struct Settings: Hashable, Sendable {
        public let halfLifeHours: Double
        public let minimumPosters: Int
        public let windowHours: Int
        /// Fine cells are tiles of this zoom (z20: ~29 m at New York), privacy cells of `privacyZoom`.
        public let cellZoom: Int
        public let privacyZoom: Int

        public init(halfLifeHours: Double, minimumPosters: Int, windowHours: Int = 24, cellZoom: Int = 20, privacyZoom: Int = 17) {
            self.halfLifeHours = halfLifeHours
            self.minimumPosters = minimumPosters
            self.windowHours = windowHours
            self.cellZoom = cellZoom
            self.privacyZoom = privacyZoom
        }
    }

    /// Weight and count of one fine cell in one hour; weights are relative to the hour's start.
    struct HourSum {
        var weight = 0.0
        var count = 0
    }

    struct FineCell {
        var hours: [Int: HourSum] = [:]
    }

    struct PrivacyCell {
        /// The hour of each person's latest Snap here, and how many people's latest Snap falls in each hour.
        var latestHour: [String: Int] = [:]
        var postersByHour: [Int: Int] = [:]
    }

    public let settings: Settings
    private let lock = NSLock()
    private var fine: [UInt64: FineCell] = [:]
    private var privacy: [UInt64: PrivacyCell] = [:]
    private let fineSpan: Double
    private var changes = 0

    public init(settings: Settings) {
        self.settings = settings
        fineSpan = WebMercator.worldSize / Double(1 << settings.cellZoom)
    }

    /// The hour index of a time (hours since 1970).
    public static func hour(of date: Date) -> Int { Int((date.timeIntervalSince1970 / 3600).rounded(.down)) }

    /// Adds one Snap: O(1).
    public func add(_ snap: PostedSnap) {
        let (column, row) = cell(of: snap.point, zoom: settings.cellZoom)
        let shift = settings.cellZoom - settings.privacyZoom
        let hour = Self.hour(of: snap.takenAt)
        let weight = pow(2, (snap.takenAt.timeIntervalSince1970 - Double(hour) * 3600) / 3600 / settings.halfLifeHours)
        lock.lock()
        defer { lock.unlock() }
        changes += 1
        fine[Self.key(column, row), default: FineCell()].hours[hour, default: HourSum()].weight += weight
        fine[Self.key(column, row)]?.hours[hour]?.count += 1
        let privacyKey = Self.key(column >> shift, row >> shift)
        var cell = privacy[privacyKey] ?? PrivacyCell()
        let previous = cell.latestHour[snap.poster]
        if previous.map({ hour > $0 }) ?? true {
            if let previous { cell.postersByHour[previous, default: 0] -= 1 }
            cell.latestHour[snap.poster] = hour
            cell.postersByHour[hour, default: 0] += 1
        }
        privacy[privacyKey] = cell
    }

    /// The glow's points inside `bounds` at `now`: the centres of fine cells whose privacy cell has enough
    /// distinct posters, each weighing the decayed sum of its Snaps in the window. In a fixed order.
    public func points(in bounds: MercatorRect, at now: Date) -> [HeatPoint] {
        let hour = Self.hour(of: now)
        let oldest = hour - settings.windowHours + 1
        let end = Double(hour + 1) * 3600
        let shift = settings.cellZoom - settings.privacyZoom
        let (firstColumn, firstRow) = cell(of: MercatorPoint(x: bounds.minX, y: bounds.maxY), zoom: settings.cellZoom)
        let (lastColumn, lastRow) = cell(of: MercatorPoint(x: bounds.maxX, y: bounds.minY), zoom: settings.cellZoom)
        lock.lock()
        defer { lock.unlock() }
        var points: [HeatPoint] = []
        for (key, cell) in fine {
            let (column, row) = Self.unkey(key)
            guard (firstColumn...lastColumn).contains(column), (firstRow...lastRow).contains(row) else { continue }
            guard posters(in: privacy[Self.key(column >> shift, row >> shift)], from: oldest, to: hour) >= settings.minimumPosters else { continue }
            var weight = 0.0
            for start in cell.hours.keys.sorted() where (oldest...hour).contains(start) {
                weight += (cell.hours[start]?.weight ?? 0) * pow(2, -(end - Double(start) * 3600) / 3600 / settings.halfLifeHours)
            }
            guard weight > 0 else { continue }
            points.append(HeatPoint(x: (Double(column) + 0.5) * fineSpan - WebMercator.halfWorld,
                                    y: WebMercator.halfWorld - (Double(row) + 0.5) * fineSpan, weight: weight))
        }
        return points.sorted { ($0.y, $0.x) > ($1.y, $1.x) }
    }

    /// Forgets every hour before the window that ends at `now`; returns how many cells went away.
    @discardableResult
    public func prune(at now: Date) -> Int {
        let oldest = Self.hour(of: now) - settings.windowHours + 1
        lock.lock()
        defer { lock.unlock() }
        let before = fine.count + privacy.count
        fine = fine.compactMapValues { cell in
            let hours = cell.hours.filter { $0.key >= oldest }
            return hours.isEmpty ? nil : FineCell(hours: hours)
        }
        privacy = privacy.compactMapValues { cell in
            let latest = cell.latestHour.filter { $0.value >= oldest }
            return latest.isEmpty ? nil : PrivacyCell(latestHour: latest, postersByHour: cell.postersByHour.filter { $0.key >= oldest })
        }
        if fine.count + privacy.count != before { changes += 1 }
        return before - fine.count - privacy.count
    }

    /// A count that moves whenever a Snap is added or cells are pruned: `points` gives the same for the same
    /// revision, bounds and hour.
    public var revision: Int {
        lock.lock()
        defer { lock.unlock() }
        return changes
    }

    /// The number of fine cells held (for tests and health).
    public var cellCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return fine.count
    }

    private func posters(in cell: PrivacyCell?, from oldest: Int, to hour: Int) -> Int {
        guard let cell else { return 0 }
        return cell.postersByHour.reduce(0) { $0 + ((oldest...hour).contains($1.key) ? $1.value : 0) }
    }

    private func cell(of point: MercatorPoint, zoom: Int) -> (Int, Int) {
        let count = 1 << zoom
        let span = WebMercator.worldSize / Double(count)
        let column = min(max(Int(((point.x + WebMercator.halfWorld) / span).rounded(.down)), 0), count - 1)
        let row = min(max(Int(((WebMercator.halfWorld - point.y) / span).rounded(.down)), 0), count - 1)
        return (column, row)
    }

    private static func key(_ column: Int, _ row: Int) -> UInt64 { UInt64(column) << 32 | UInt64(row) }
    private static func unkey(_ key: UInt64) -> (Int, Int) { (Int(key >> 32), Int(key & 0xFFFF_FFFF)) }
}
