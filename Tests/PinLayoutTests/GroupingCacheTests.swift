import Foundation
import GeoCore
import Testing
@testable import PinLayout

/// Kept groupings change nothing: a layout made with a grouping kept from other viewports, selections and friend
/// sets is the layout made afresh; the cache holds no more friends than its bound and forgets everything at once.
@Suite("Kept groupings")
struct GroupingCacheTests {
    @Test func aKeptGroupingGivesTheLayoutMadeAfresh() {
        let cache = GroupingCache(maxSubjects: 500)
        let kept = PinLayoutEngine(style: PinStyle(), measurer: FixedWidthMeasurer(), groupings: cache)
        let sets = [Fixture.crowd(count: 120, seed: 7), Fixture.crowd(count: 200, seed: 8), Fixture.crowd(count: 120, seed: 9)]
        var random = SplitMix64(seed: 31)
        for _ in 0..<60 {
            let subjects = sets[Int.random(in: 0..<sets.count, using: &random)]
            let selected = Bool.random(using: &random) ? subjects.randomElement(using: &random)?.id : nil
            let viewport = Fixture.viewport(Double.random(in: 40.700...40.728, using: &random), Double.random(in: -73.972 ... -73.930, using: &random),
                                            zoom: Double.random(in: 11...18, using: &random))
            let fresh = Fixture.engine.layout(subjects: subjects, viewport: viewport, selected: selected, now: Fixture.now)
            #expect(kept.layout(subjects: subjects, viewport: viewport, selected: selected, now: Fixture.now) == fresh)
            #expect(cache.subjectCount <= cache.maxSubjects)
        }
        #expect(cache.subjectCount > 0)
        // A friend who moves is another set of friends: the kept grouping of the old places is not used.
        var moved = sets[0]
        moved[0] = Fixture.subject(moved[0].id, moved[1].coordinate.lat, moved[1].coordinate.lon)
        let viewport = Fixture.viewport(moved[1].coordinate.lat, moved[1].coordinate.lon, zoom: 17)
        #expect(kept.layout(subjects: moved, viewport: viewport, now: Fixture.now) == Fixture.engine.layout(subjects: moved, viewport: viewport, now: Fixture.now))
        cache.removeAll()
        #expect(cache.subjectCount == 0)
    }

    @Test func aSetLargerThanTheBoundIsNotKept() {
        let cache = GroupingCache(maxSubjects: 50)
        let kept = PinLayoutEngine(style: PinStyle(), measurer: FixedWidthMeasurer(), groupings: cache)
        let viewport = Fixture.viewport(40.714, -73.951, zoom: 14)
        let (large, older, newer) = (Fixture.crowd(count: 51, seed: 3), Fixture.crowd(count: 30, seed: 3), Fixture.crowd(count: 30, seed: 4))
        _ = kept.layout(subjects: large, viewport: viewport, now: Fixture.now)
        #expect(large.count > 50 && cache.subjectCount == 0)
        _ = kept.layout(subjects: older, viewport: viewport, now: Fixture.now)
        #expect(cache.subjectCount == older.count)
        _ = kept.layout(subjects: newer, viewport: viewport, now: Fixture.now)
        #expect(older.count + newer.count > 50 && cache.subjectCount == newer.count, "the older set made room for the newer")
    }
}
