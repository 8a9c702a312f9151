import Foundation
import GeoCore

/// What the glow draws during one epoch: the cells that had at least `minimumPosters` distinct posters in the
/// window at the epoch's start, each weighing the sum of its posters' decayed weights with each poster's capped at
/// `maxWeightPerPoster`. Nothing else about the Snaps is in it, so a public output made from it depends on no cell
/// of fewer posters and changes only from one epoch to the next.
public struct GlowSnapshot: Sendable {
    /// A cell is drawn as this many points a side, evenly over it, sharing its weight: 29 m apart at New York, well
    /// under the kernel's σ of 50 m, so the glow shows no trace of the grid.
    public static let pointsPerSide = 4

    /// The epoch drawn (epochs are `epochSeconds` long since 1970) and the instant its Snaps were taken at.
    public let epoch: Int
    public let start: Date
    /// The drawn cells' points and weights, north to south, then west to east.
    public let points: [HeatPoint]
    /// A hash of `points` (FNV-1a of their bits): equal digests, equal drawings.
    public let digest: UInt64
    /// The points by place, keyed by their index in `points`, in cells of `indexCells` Snap cells a side.
    private let index: GridIndex<MercatorMetres>
    static let indexCells = 8.0

    /// The drawn points inside `bounds` (edges included), in `points`' order.
    public func points(in bounds: MercatorRect) -> [HeatPoint] {
        let area = PlaneRect<MercatorMetres>(x: bounds.minX, y: bounds.minY, width: bounds.maxX - bounds.minX, height: bounds.maxY - bounds.minY)
        // The box's far edges are sums that may round, so the grid's answer is checked against the bounds themselves.
        return index.keys(meeting: area.outset(by: 1)).map { points[$0] }.filter { point in
            bounds.minX <= point.mercator.x && point.mercator.x <= bounds.maxX && bounds.minY <= point.mercator.y && point.mercator.y <= bounds.maxY
        }
    }

    /// FNV-1a over the bits of each point's position and weight: what a tag of drawn points hashes.
    public static func fingerprint(of points: some Sequence<HeatPoint>, seed: UInt64 = FNV1a.offsetBasis) -> UInt64 {
        var hasher = FNV1a(seed: seed)
        for point in points {
            for value in [point.mercator.x, point.mercator.y, point.weight] { hasher.add(bitsOf: value) }
        }
        return hasher.value
    }

    /// The snapshot of `cells` (a cell's contributions with their fixed-point weights) at the start of `epoch`:
    /// only Snaps received by then, taken in the window's hours, decayed to the end of the start's hour.
    init(epoch: Int, cells: [UInt64: [SnapAggregate.Contribution: UInt64]], settings: SnapAggregate.Settings) {
        let start = settings.start(of: epoch)
        let hour = SnapAggregate.hour(of: start)
        let window = (hour - settings.windowHours + 1)...hour
        let decay = window.map { pow(2, -Double(hour + 1 - $0) / settings.halfLifeHours) / SnapAggregate.fixedPointOne }
        let span = WebMercator.worldSize / Double(1 << settings.cellZoom)
        var points: [HeatPoint] = []
        for (key, contributions) in cells {
            var byPoster: [String: [UInt64]] = [:]
            for (contribution, sum) in contributions where contribution.epoch <= epoch && window.contains(contribution.hour) {
                byPoster[contribution.poster, default: Array(repeating: 0, count: window.count)][contribution.hour - window.lowerBound] += sum
            }
            guard byPoster.count >= settings.minimumPosters else { continue }
            // Each poster's hours in order, then the capped weights in ascending order: the same sum on every machine.
            let capped = byPoster.values.map { sums in
                min(zip(sums, decay).reduce(0.0) { $0 + Double($1.0) * $1.1 }, settings.maxWeightPerPoster)
            }
            let (column, row) = SnapAggregate.unkey(key)
            let weight = capped.sorted().reduce(0, +) / Double(Self.pointsPerSide * Self.pointsPerSide)
            for step in 0..<Self.pointsPerSide * Self.pointsPerSide {
                let (across, down) = (Double(step % Self.pointsPerSide) + 0.5, Double(step / Self.pointsPerSide) + 0.5)
                points.append(HeatPoint(MercatorPoint(x: (Double(column) + across / Double(Self.pointsPerSide)) * span - WebMercator.halfWorld,
                                                      y: WebMercator.halfWorld - (Double(row) + down / Double(Self.pointsPerSide)) * span), weight: weight))
            }
        }
        points.sort { ($1.mercator.y, $0.mercator.x) < ($0.mercator.y, $1.mercator.x) }
        self.epoch = epoch
        self.start = start
        self.points = points
        digest = Self.fingerprint(of: points)
        let (xs, ys) = (points.map(\.mercator.x), points.map(\.mercator.y))
        let extent = PlaneRect<MercatorMetres>(x: xs.min() ?? 0, y: ys.min() ?? 0, width: (xs.max() ?? 0) - (xs.min() ?? 0), height: (ys.max() ?? 0) - (ys.min() ?? 0))
        var index = GridIndex(extent: extent, cellSize: span * Self.indexCells)
        for (key, point) in points.enumerated() { index.insert(key, PlaneRect(x: point.mercator.x, y: point.mercator.y, width: 0, height: 0)) }
        self.index = index
    }
}
