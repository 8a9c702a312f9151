import Foundation
import GeoCore
import HeatMap
import Testing

@Suite("The live glow's aggregate")
struct SnapAggregateTests {
    static let settings = SnapAggregate.Settings(halfLifeHours: 6, minimumPosters: 3)
    static let end = Date(timeIntervalSince1970: 1_796_000_000 - 1_796_000_000.truncatingRemainder(dividingBy: 3600))

    /// Snaps over the 40 hours before `end` around a few places, by people from small pools.
    static func snaps(count: Int, seed: UInt64) -> [PostedSnap] {
        var random = SplitMix64(seed: seed)
        let centre = WebMercator.projectUnchecked(lat: 40.7180, lon: -73.9570)
        return (0..<count).map { _ in
            let place = Int(random.next() % 4)
            let point = MercatorPoint(x: centre.x + Double(place) * 400 + random.unit() * 120, y: centre.y + random.unit() * 120)
            return PostedSnap(poster: "p\(place)-\(random.next() % UInt64(2 + place))", point: point,
                              takenAt: end.addingTimeInterval(-random.unit() * 40 * 3600))
        }
    }

    /// The glow by a direct sum over the Snaps: per fine cell, Σ 2^(−(end of hour − t) / half-life) over Snaps whose
    /// hour is in the window, where the privacy cell had enough distinct posters in the window.
    static func direct(_ snaps: [PostedSnap], at now: Date) -> [String: Double] {
        let hour = SnapAggregate.hour(of: now)
        let inWindow = snaps.filter { (hour - settings.windowHours + 1...hour).contains(SnapAggregate.hour(of: $0.takenAt)) }
        func cell(_ point: MercatorPoint, _ zoom: Int) -> String {
            let span = WebMercator.worldSize / Double(1 << zoom)
            return "\(Int(((point.x + WebMercator.halfWorld) / span).rounded(.down))),\(Int(((WebMercator.halfWorld - point.y) / span).rounded(.down)))"
        }
        var posters: [String: Set<String>] = [:]
        for snap in inWindow { posters[cell(snap.point, settings.privacyZoom), default: []].insert(snap.poster) }
        var weights: [String: Double] = [:]
        let end = Double(hour + 1) * 3600
        for snap in inWindow where (posters[cell(snap.point, settings.privacyZoom)]?.count ?? 0) >= settings.minimumPosters {
            weights[cell(snap.point, settings.cellZoom), default: 0] += pow(2, -(end - snap.takenAt.timeIntervalSince1970) / 3600 / settings.halfLifeHours)
        }
        return weights
    }

    static func keyed(_ points: [HeatPoint]) -> [String: Double] {
        let span = WebMercator.worldSize / Double(1 << settings.cellZoom)
        return Dictionary(uniqueKeysWithValues: points.map { point in
            ("\(Int(((point.x + WebMercator.halfWorld) / span).rounded(.down))),\(Int(((WebMercator.halfWorld - point.y) / span).rounded(.down)))", point.weight)
        })
    }

    @Test(arguments: [0.0, 1800.0, 3599.5, 3600.5, 18000.0])
    func decayAndWindowMatchADirectSum(after seconds: Double) {
        let snaps = Self.snaps(count: 3000, seed: 4)
        let aggregate = SnapAggregate(settings: Self.settings)
        snaps.forEach(aggregate.add)
        let now = Self.end.addingTimeInterval(seconds)
        let world = MercatorRect(minX: -WebMercator.halfWorld, minY: -WebMercator.halfWorld, maxX: WebMercator.halfWorld, maxY: WebMercator.halfWorld)
        let ours = Self.keyed(aggregate.points(in: world, at: now))
        let expected = Self.direct(snaps, at: now)
        #expect(!expected.isEmpty && Set(ours.keys) == Set(expected.keys))
        for (key, weight) in expected { #expect(abs((ours[key] ?? 0) - weight) <= 1e-9 * weight, "\(key)") }
        let pruned = SnapAggregate(settings: Self.settings)
        snaps.forEach(pruned.add)
        pruned.prune(at: now)
        #expect(Self.keyed(pruned.points(in: world, at: now)) == ours, "pruning forgets only what left the window; sums run in hour order")
    }

    @Test func onePersonAloneIsNeverSeenAndEnoughPeopleAre() {
        let aggregate = SnapAggregate(settings: Self.settings)
        let place = WebMercator.projectUnchecked(lat: 40.70, lon: -73.93)
        let world = MercatorRect(minX: place.x - 1000, minY: place.y - 1000, maxX: place.x + 1000, maxY: place.y + 1000)
        for step in 0..<200 { aggregate.add(PostedSnap(poster: "alone", point: place, takenAt: Self.end.addingTimeInterval(-Double(step)))) }
        #expect(aggregate.points(in: world, at: Self.end).isEmpty, "200 Snaps of one person show nothing")
        aggregate.add(PostedSnap(poster: "second", point: place, takenAt: Self.end))
        #expect(aggregate.points(in: world, at: Self.end).isEmpty, "two people are still below the floor of three")
        aggregate.add(PostedSnap(poster: "third", point: place, takenAt: Self.end))
        #expect(aggregate.points(in: world, at: Self.end).count == 1)
        #expect(aggregate.points(in: world, at: Self.end.addingTimeInterval(24 * 3600)).isEmpty, "a day later the window is empty")
    }
}
