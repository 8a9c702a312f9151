import Foundation
import GeoCore
import HeatMap

/// The glow written the direct way, from the rules as the README states them, to check the aggregate against:
/// the snapshot at `now` holds the Snaps received by its epoch's start and taken in the 24 hours ending with the
/// start's hour; each poster's weight in a cell is Σ 2^(−(end of that hour − taken) / half-life), capped; a cell
/// with fewer than `minimumPosters` distinct posters is not drawn.
enum GlowModel {
    /// The cell (column, row at `zoom`) of a point, as "column,row".
    static func cell(_ point: MercatorPoint, zoom: Int) -> String {
        let span = WebMercator.worldSize / Double(1 << zoom)
        return "\(Int(((point.x + WebMercator.halfWorld) / span).rounded(.down))),\(Int(((WebMercator.halfWorld - point.y) / span).rounded(.down)))"
    }

    /// Each poster's uncapped weight per drawn-or-not cell at `now`.
    static func posterWeights(_ snaps: [PostedSnap], at now: Date, settings: SnapAggregate.Settings) -> [String: [String: Double]] {
        let seconds = Double(settings.epochSeconds)
        let start = (now.timeIntervalSince1970 / seconds).rounded(.down) * seconds
        let hour = Int((start / 3600).rounded(.down))
        let end = Double(hour + 1) * 3600
        var weights: [String: [String: Double]] = [:]
        for snap in snaps where snap.receivedAt.timeIntervalSince1970 <= start {
            let taken = Int((snap.takenAt.timeIntervalSince1970 / 3600).rounded(.down))
            guard (hour - settings.windowHours + 1...hour).contains(taken) else { continue }
            weights[cell(snap.point, zoom: settings.cellZoom), default: [:]][snap.poster, default: 0]
                += pow(2, -(end - snap.takenAt.timeIntervalSince1970) / 3600 / settings.halfLifeHours)
        }
        return weights
    }

    /// The drawn cells and their weights at `now`.
    static func drawn(_ snaps: [PostedSnap], at now: Date, settings: SnapAggregate.Settings) -> [String: Double] {
        posterWeights(snaps, at: now, settings: settings).filter { $0.value.count >= settings.minimumPosters }
            .mapValues { posters in posters.values.reduce(0) { $0 + min($1, settings.maxWeightPerPoster) } }
    }

    /// The aggregate's points summed by their cells.
    static func keyed(_ points: [HeatPoint], zoom: Int = 18) -> [String: Double] {
        Dictionary(points.map { (cell($0.mercator, zoom: zoom), $0.weight) }, uniquingKeysWith: +)
    }

    static let world = MercatorRect(minX: -WebMercator.halfWorld, minY: -WebMercator.halfWorld, maxX: WebMercator.halfWorld, maxY: WebMercator.halfWorld)
}
