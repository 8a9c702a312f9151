import Foundation
import GeoCore
import Testing
@testable import PinLayout

/// Round-avatar groups against a brute-force model, and labels placed with their avatars: eight anchors, a
/// short form, and a reason when they hide.
@Suite("Groups and symbols")
struct SymbolTests {
    /// The grouping rule written plainly: in priority order each ungrouped point seeds a group that takes the
    /// nearest ungrouped point within the threshold of the members' mean, again and again; then any two groups
    /// whose means are within the threshold merge (the later into the earlier), until none are.
    static func model(_ points: [ScreenPoint], threshold: Double) -> [[Int]] {
        func mean(_ members: [Int]) -> ScreenPoint {
            ScreenPoint(x: members.map { points[$0].x }.reduce(0, +) / Double(members.count), y: members.map { points[$0].y }.reduce(0, +) / Double(members.count))
        }
        func distance(_ a: ScreenPoint, _ b: ScreenPoint) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        var taken = Set<Int>()
        var groups: [[Int]] = []
        for seed in points.indices where !taken.contains(seed) {
            var members = [seed]
            taken.insert(seed)
            while true {
                let centre = mean(members)
                let candidates = points.indices.filter { !taken.contains($0) && distance(points[$0], centre) < threshold }
                guard let next = candidates.min(by: { distance(points[$0], centre) < distance(points[$1], centre) }) else { break }
                members.append(next)
                taken.insert(next)
            }
            groups.append(members)
        }
        var merging = true
        while merging {
            merging = false
            outer: for i in groups.indices {
                for j in groups.indices where j > i && distance(mean(groups[i]), mean(groups[j])) < threshold {
                    groups[i] += groups[j]
                    groups.remove(at: j)
                    merging = true
                    break outer
                }
            }
        }
        return groups.map { $0.sorted() }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func groupsMatchTheBruteForceModel(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let points = (0..<80).map { _ in ScreenPoint(x: Double.random(in: 0...300, using: &random), y: Double.random(in: 0...300, using: &random)) }
        let threshold = Fixture.engine.groupingDistance
        let groups = PinGrouping.groups(of: points, threshold: threshold)
        #expect(groups.map { $0.members.sorted() } == Self.model(points, threshold: threshold))
        for group in groups {
            let mean = PinGrouping.mean(group.members, points: points, weights: [Int](repeating: 1, count: points.count))
            #expect(abs(group.centre.x - mean.x) < 1e-9 && abs(group.centre.y - mean.y) < 1e-9, "the avatar sits at the members' centre")
        }
    }

    /// A crowd dense enough that most groups end up merging into each other, and friends standing on the very
    /// same spot: the grid-indexed grouping still gives the model's groups.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func denseCrowdsAndSharedSpotsMatchTheModel(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var points = (0..<300).map { _ in ScreenPoint(x: Double.random(in: 0...200, using: &random), y: Double.random(in: 0...200, using: &random)) }
        points += points.prefix(40)
        let threshold = Fixture.engine.groupingDistance
        #expect(PinGrouping.groups(of: points, threshold: threshold).map { $0.members.sorted() } == Self.model(points, threshold: threshold))
    }

    /// Two round avatars 48.4 pt apart on a diagonal: their boxes overlap, their circles do not, so they stay apart.
    @Test func diagonalNeighboursWhoseCirclesDoNotOverlapStayApart() {
        let viewport = Fixture.viewport(40.7150, -73.9560, zoom: 16, insets: .zero)
        let step = 48.4 / 2.0.squareRoot()
        let a = WebMercator.unprojectUnchecked(viewport.mercator(at: ScreenPoint(x: 150, y: 400)))
        let b = WebMercator.unprojectUnchecked(viewport.mercator(at: ScreenPoint(x: 150 + step, y: 400 + step)))
        let layout = Fixture.engine.layout(subjects: [Fixture.subject("a", a.lat, a.lon), Fixture.subject("b", b.lat, b.lon)], viewport: viewport, now: Fixture.now)
        #expect(layout.groups.isEmpty && layout.pins.allSatisfy { $0.visible })
    }

    /// A screen just wide enough for "Solo" but not "Solo · 5m": the label takes its short form.
    @Test func aLabelThatFitsNowhereInFullTakesItsShortForm() throws {
        let viewport = try Viewport(center: Coordinate(lat: 40.7150, lon: -73.9560), zoom: 15, size: ScreenSize(width: 60, height: 300), scale: 1, insets: .zero)
        let layout = Fixture.engine.layout(subjects: [Fixture.subject("solo", 40.7150, -73.9560)], viewport: viewport, now: Fixture.now)
        let pin = try #require(layout.pin("solo"))
        #expect(pin.labelShort && pin.labelText == "Solo" && pin.labelRect != nil)
    }

    /// A screen no wider than the avatar: no anchor holds even the short form, and the JSON says why.
    @Test func aLabelThatFitsNowhereSaysWhy() throws {
        let viewport = try Viewport(center: Coordinate(lat: 40.7150, lon: -73.9560), zoom: 15, size: ScreenSize(width: 50, height: 60), scale: 1, insets: .zero)
        let layout = Fixture.engine.layout(subjects: [Fixture.subject("solo", 40.7150, -73.9560)], viewport: viewport, now: Fixture.now)
        let pin = try #require(layout.pin("solo"))
        #expect(pin.visible && pin.labelRect == nil && pin.labelHidden?.contains("the screen edge") == true, "\(pin.labelHidden ?? "no reason")")
    }

    /// Each of the eight anchors is used when the ones before it are taken: a ring of blockers around one friend,
    /// opened one anchor at a time, must be found.
    @Test func everyAnchorIsTried() {
        let viewport = Fixture.viewport(40.7150, -73.9560, zoom: 16, insets: .zero)
        var used = Set<LabelAnchor>()
        for anchor in LabelAnchor.allCases {
            let previous = Dictionary(uniqueKeysWithValues: [("solo", anchor)])
            let layout = Fixture.engine.layout(subjects: [Fixture.subject("solo", 40.7150, -73.9560)], viewport: viewport, now: Fixture.now,
                                               previousAnchors: previous)
            if let placed = layout.pin("solo")?.anchor { used.insert(placed) }
        }
        #expect(used == Set(LabelAnchor.allCases), "every anchor gives a label box that fits on an open screen")
    }
}
