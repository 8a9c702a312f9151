import Foundation
import GeoCore
import HeatMap
import Raster
import Testing

@Suite("The live glow's aggregate")
struct SnapAggregateTests {
    static let settings = SnapAggregate.Settings(halfLifeHours: 6, minimumPosters: 3, maxWeightPerPoster: 2, epochSeconds: 300)
    static let end = Date(timeIntervalSince1970: 1_796_000_000 - 1_796_000_000.truncatingRemainder(dividingBy: 3600))

    /// Snaps over the 40 hours before `end` around a few places, by people from small pools, each received up to
    /// 20 minutes after it was taken.
    static func snaps(count: Int, seed: UInt64) -> [PostedSnap] {
        var random = SplitMix64(seed: seed)
        let centre = WebMercator.projectUnchecked(lat: 40.7180, lon: -73.9570)
        return (0..<count).map { _ in
            let place = Int(random.next() % 4)
            let point = MercatorPoint(x: centre.x + Double(place) * 400 + random.unit() * 300, y: centre.y + random.unit() * 300)
            let taken = end.addingTimeInterval(-random.unit() * 40 * 3600)
            return PostedSnap(poster: "p\(place)-\(random.next() % UInt64(2 + 2 * place))", point: point, takenAt: taken,
                              receivedAt: taken.addingTimeInterval(random.unit() * 1200))
        }
    }

    /// A removed poster's Snaps leave the glow from the epoch named on, as every change does: the epoch before
    /// draws as it did, and the next one as if they had never posted.
    @Test func aRemovedPosterLeavesAtTheNextEpoch() {
        let snaps = Self.snaps(count: 2000, seed: 9)
        let poster = snaps[0].poster
        let (aggregate, never) = (SnapAggregate(settings: Self.settings), SnapAggregate(settings: Self.settings))
        snaps.forEach(aggregate.add)
        snaps.filter { $0.poster != poster }.forEach(never.add)
        let now = Self.end.addingTimeInterval(30)
        let before = aggregate.snapshot(at: now).points
        #expect(before != never.snapshot(at: now).points, "the poster shows before")
        aggregate.remove(poster: poster, from: Self.settings.epoch(of: now) + 1)
        #expect(aggregate.snapshot(at: now).points == before, "the epoch the removal came in draws as it did")
        let next = now.addingTimeInterval(Double(Self.settings.epochSeconds))
        #expect(aggregate.snapshot(at: next).points == never.snapshot(at: next).points, "the next epoch draws as if they never posted")
    }

    @Test(arguments: [0.0, 299.0, 1800.0, 3599.5, 3600.5, 18000.0])
    func decayWindowCapAndEpochsMatchADirectSum(after seconds: Double) {
        let snaps = Self.snaps(count: 3000, seed: 4)
        let aggregate = SnapAggregate(settings: Self.settings)
        snaps.forEach(aggregate.add)
        let now = Self.end.addingTimeInterval(seconds)
        let ours = GlowModel.keyed(aggregate.points(in: GlowModel.world, at: now), zoom: Self.settings.cellZoom)
        let expected = GlowModel.drawn(snaps, at: now, settings: Self.settings)
        let skipped = GlowModel.posterWeights(snaps, at: now, settings: Self.settings).filter { $0.value.count < Self.settings.minimumPosters }
        #expect(!expected.isEmpty && !skipped.isEmpty && Set(ours.keys) == Set(expected.keys), "some cells drawn and some below the floor")
        for (key, weight) in expected { #expect(abs((ours[key] ?? 0) - weight) <= 1e-9 * weight, "\(key)") }
        let pruned = SnapAggregate(settings: Self.settings)
        snaps.forEach(pruned.add)
        pruned.prune(at: now)
        #expect(pruned.snapshot(at: now).points == aggregate.snapshot(at: now).points, "pruning forgets only what left the window")
    }

    /// Weights are kept in fixed point and summed in a fixed order: the same Snaps in any order give the same bits.
    @Test func theOrderSnapsArriveInChangesNoBit() {
        let snaps = Self.snaps(count: 2000, seed: 9)
        var random = SplitMix64(seed: 10)
        let forward = SnapAggregate(settings: Self.settings)
        let shuffled = SnapAggregate(settings: Self.settings)
        snaps.forEach(forward.add)
        snaps.shuffled(using: &random).forEach(shuffled.add)
        let (a, b) = (forward.snapshot(at: Self.end), shuffled.snapshot(at: Self.end))
        #expect(!a.points.isEmpty && a.points == b.points && a.digest == b.digest)
    }

    @Test func thePointsInABoxAreThoseAFilterFinds() {
        let aggregate = SnapAggregate(settings: Self.settings)
        Self.snaps(count: 2000, seed: 11).forEach(aggregate.add)
        let all = aggregate.snapshot(at: Self.end).points
        var random = SplitMix64(seed: 12)
        for _ in 0..<50 {
            let corner = all[Int(random.next() % UInt64(all.count))].mercator
            let (x, y) = (corner.x + (random.unit() - 0.5) * 400, corner.y + (random.unit() - 0.5) * 400)
            let bounds = MercatorRect(minX: x, minY: y, maxX: x + random.unit() * 600, maxY: y + random.unit() * 600)
            let inside = all.filter { (bounds.minX...bounds.maxX).contains($0.mercator.x) && (bounds.minY...bounds.maxY).contains($0.mercator.y) }
            #expect(aggregate.points(in: bounds, at: Self.end) == inside)
        }
    }

    @Test func onePersonAloneIsNeverSeenAndEnoughPeopleAre() {
        let aggregate = SnapAggregate(settings: Self.settings)
        let place = WebMercator.projectUnchecked(lat: 40.70, lon: -73.93)
        for step in 0..<200 { aggregate.add(PostedSnap(poster: "alone", point: place, takenAt: Self.end.addingTimeInterval(-Double(step)))) }
        #expect(aggregate.points(in: GlowModel.world, at: Self.end).isEmpty, "200 Snaps of one person show nothing")
        aggregate.add(PostedSnap(poster: "second", point: place, takenAt: Self.end))
        #expect(aggregate.points(in: GlowModel.world, at: Self.end).isEmpty, "two people are still below the floor of three")
        aggregate.add(PostedSnap(poster: "third", point: place, takenAt: Self.end))
        #expect(GlowModel.keyed(aggregate.points(in: GlowModel.world, at: Self.end)).count == 1)
        #expect(aggregate.points(in: GlowModel.world, at: Self.end.addingTimeInterval(24 * 3600)).isEmpty, "a day later the window is empty")
    }

    /// Issue 25's finding 3: k posters in one place made a lone Snap 200 m away glow, because posters were counted
    /// per ~230 m cell and drawn per ~29 m one. Counted where drawn, the lone Snap's cell is not drawn at all.
    @Test func aLoneSnapBesideABusyCellIsNotDrawn() throws {
        let aggregate = SnapAggregate(settings: Self.settings)
        let busy = WebMercator.projectUnchecked(lat: 40.7207, lon: -73.9515)
        let lone = try Geodesic.wgs84.destination(from: Coordinate(lat: 40.7207, lon: -73.9515), azimuth: 90, distance: 200)
        let lonePoint = WebMercator.projectUnchecked(lat: lone.lat, lon: lone.lon)
        let crowd = (0..<Self.settings.minimumPosters).map { PostedSnap(poster: "crowd-\($0)", point: busy, takenAt: Self.end) }
        crowd.forEach(aggregate.add)
        let before = aggregate.snapshot(at: Self.end).points
        aggregate.add(PostedSnap(poster: "lone", point: lonePoint, takenAt: Self.end))
        #expect(GlowModel.keyed(before).count == 1 && aggregate.snapshot(at: Self.end).points == before, "the lone Snap is in no drawn cell and changes nothing")
        #expect(GlowModel.cell(lonePoint, zoom: Self.settings.cellZoom) != GlowModel.cell(busy, zoom: Self.settings.cellZoom))
    }

    /// One heavy poster in a cell that has k posters weighs at most the cap: the cell weighs what the direct model
    /// says, which is less than the uncapped sum.
    @Test(arguments: [1, 40, 400])
    func aHeavyPostersWeightIsCapped(snapsOfTheHeavyPoster: Int) {
        let place = WebMercator.projectUnchecked(lat: 40.7142, lon: -73.9679)
        var snaps = (0..<Self.settings.minimumPosters).map { PostedSnap(poster: "light-\($0)", point: place, takenAt: Self.end.addingTimeInterval(-600)) }
        snaps += (0..<snapsOfTheHeavyPoster).map { PostedSnap(poster: "heavy", point: place, takenAt: Self.end.addingTimeInterval(-Double($0) * 30)) }
        let aggregate = SnapAggregate(settings: Self.settings)
        snaps.forEach(aggregate.add)
        let drawn = GlowModel.keyed(aggregate.points(in: GlowModel.world, at: Self.end)).map { (cell: $0.key, weight: $0.value) }
        let cell = GlowModel.cell(place, zoom: Self.settings.cellZoom)
        let model = GlowModel.drawn(snaps, at: Self.end, settings: Self.settings)
        let heavy = GlowModel.posterWeights(snaps, at: Self.end, settings: Self.settings)[cell]?["heavy"] ?? 0
        let lights = model[cell].map { $0 - min(heavy, Self.settings.maxWeightPerPoster) } ?? 0
        #expect(drawn.count == 1 && abs((drawn.first?.weight ?? 0) - (model[cell] ?? -1)) <= 1e-9 * (model[cell] ?? 1))
        #expect((drawn.first?.weight ?? 0) <= lights + Self.settings.maxWeightPerPoster + 1e-9, "the heavy poster adds at most the cap")
        if heavy > Self.settings.maxWeightPerPoster { #expect((drawn.first?.weight ?? 0) < lights + heavy, "and the cap bit") }
    }

    /// Snaps received during an epoch leave its snapshot as it was at the start; the next epoch draws them, the same
    /// as if they had been received at its start.
    @Test func snapsReceivedDuringAnEpochWaitForTheNext() {
        let place = WebMercator.projectUnchecked(lat: 40.7173, lon: -73.9570)
        let start = Self.end.addingTimeInterval(600)
        let crowd = (0..<Self.settings.minimumPosters).map { PostedSnap(poster: "c\($0)", point: place, takenAt: Self.end) }
        let aggregate = SnapAggregate(settings: Self.settings)
        crowd.forEach(aggregate.add)
        let atStart = aggregate.snapshot(at: start)
        let late = [10.0, 250.0].map { PostedSnap(poster: "late", point: place, takenAt: start.addingTimeInterval($0)) }
        late.forEach(aggregate.add)
        for offset in [0.0, 20.0, 260.0, 299.9] {
            #expect(aggregate.snapshot(at: start.addingTimeInterval(offset)).digest == atStart.digest, "unchanged \(offset) s into the epoch")
        }
        let next = aggregate.snapshot(at: start.addingTimeInterval(300))
        let reference = SnapAggregate(settings: Self.settings)
        (crowd + late.map { PostedSnap(poster: $0.poster, point: $0.point, takenAt: $0.takenAt, receivedAt: start.addingTimeInterval(300)) })
            .forEach(reference.add)
        #expect(next.digest != atStart.digest && next.points == reference.snapshot(at: start.addingTimeInterval(300)).points)
    }

    /// After a bus lost messages, reconciling with the store's Snaps makes the next epoch draw exactly what an
    /// aggregate fed only the store's Snaps draws (a poster removed unheard gone, Snaps posted unheard there); the
    /// epoch it came in draws as it did, and a second reconcile changes nothing.
    @Test func reconcilingWithTheStoreDrawsWhatTheStoreHoldsFromTheNextEpoch() {
        let held = Self.snaps(count: 2000, seed: 21)
        let removed = held[0].poster
        let unheard = Self.snaps(count: 600, seed: 22).map { PostedSnap(poster: "new-" + $0.poster, point: $0.point, takenAt: $0.takenAt) }
        let stored = held.filter { $0.poster != removed } + unheard
        let aggregate = SnapAggregate(settings: Self.settings)
        held.forEach(aggregate.add)
        let now = Self.end.addingTimeInterval(1800)
        let before = aggregate.snapshot(at: now).points
        let next = Self.settings.epoch(of: now) + 1
        let inWindow = stored.filter { $0.takenAt >= Self.settings.windowStart(of: next) }
        let changed = aggregate.reconcile(with: inWindow, from: next)
        let gone = Set(held.map(\.poster)).subtracting(inWindow.map(\.poster))
        #expect(gone.contains(removed) && changed.removed == gone.count && changed.grown > 0)
        #expect(aggregate.snapshot(at: now).points == before, "the epoch it came in draws as it did")
        let reference = SnapAggregate(settings: Self.settings)
        stored.forEach(reference.add)
        let drawn = aggregate.snapshot(at: Self.settings.start(of: next)).points
        #expect(drawn != before && drawn == reference.snapshot(at: Self.settings.start(of: next)).points)
        #expect(aggregate.reconcile(with: inWindow, from: next) == (0, 0), "a second reconcile changes nothing")
    }

    @Test(arguments: [("maxWeightPerPoster", 0.0, 300), ("epochSeconds", 3.0, 0), ("epochSeconds", 3.0, 7200)])
    func theStyleRefusesCapsAndEpochsOutOfRange(field: String, cap: Double, epoch: Int) {
        #expect {
            try HeatStyle(radius: 30, radiusMeters: 150, intensity: 1, maxDensity: 14, opacity: 0.8, maxWeightPerPoster: cap, epochSeconds: epoch,
                          stops: [(0, Color(r: 0, g: 0, b: 0, a: 0)), (1, Color(r: 255, g: 0, b: 0, a: 255))])
        } throws: { "\($0)".contains("heat.\(field)") && "\($0)".contains("allowed") }
    }
}
