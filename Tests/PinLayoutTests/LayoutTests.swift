import Foundation
import GeoCore
import Testing
@testable import PinLayout

@Suite("Pin layout")
struct LayoutTests {
    /// Round avatars: no two closer than the grouping distance; labels overlap no label and no avatar's circle.
    @Test func thousandRandomViewportsHaveNoOverlapsAndNothingUnderTheInsets() {
        let subjects = Fixture.crowd(count: 60, seed: 1)
        var random = SplitMix64(seed: 2)
        var placedLabels = 0
        let radius = Fixture.engine.style.avatarSize / 2
        for _ in 0..<1_000 {
            let viewport = Fixture.viewport(Double.random(in: 40.700...40.728, using: &random), Double.random(in: -73.972 ... -73.930, using: &random),
                                            zoom: Double.random(in: 12...18, using: &random))
            let layout = Fixture.engine.layout(subjects: subjects, viewport: viewport, now: Fixture.now)
            var avatars: [ScreenRect] = []
            var labels: [ScreenRect] = []
            for pin in layout.pins where pin.visible && pin.groupId == nil {
                avatars += [pin.avatarRect].compactMap { $0 }
                labels += [pin.labelRect].compactMap { $0 }
            }
            for group in layout.groups {
                avatars += [group.avatarRect].compactMap { $0 }
                labels += [group.labelRect].compactMap { $0 }
            }
            placedLabels += labels.count
            for box in avatars + labels { #expect(viewport.freeRect.contains(box), "\(box) lies under the insets or off screen") }
            for (index, label) in labels.enumerated() {
                for other in labels[(index + 1)...] { #expect(!label.overlaps(other), "\(label) overlaps \(other)") }
                for avatar in avatars { #expect(!Self.intersects(label, circle: avatar.center, radius: radius), "\(label) covers the avatar at \(avatar.center)") }
            }
            for (index, avatar) in avatars.enumerated() {
                for other in avatars[(index + 1)...] {
                    #expect(hypot(avatar.center.x - other.center.x, avatar.center.y - other.center.y) >= Fixture.engine.groupingDistance - 1e-9)
                }
            }
            let grouped = Set(layout.groups.flatMap(\.members))
            #expect(layout.pins.filter { $0.groupId != nil }.allSatisfy { grouped.contains($0.id) })
            #expect(layout.pins.filter { !$0.visible }.allSatisfy { $0.hidden != nil }, "a friend who is not drawn says why")
        }
        #expect(placedLabels > 1_000, "the viewports did show labels")
    }

    /// Rectangle and circle share area: the nearest point of the rectangle to the centre is inside the circle
    /// (written here again, independently of the engine's).
    static func intersects(_ rect: ScreenRect, circle centre: ScreenPoint, radius: Double) -> Bool {
        let dx = max(rect.minX - centre.x, 0, centre.x - rect.maxX)
        let dy = max(rect.minY - centre.y, 0, centre.y - rect.maxY)
        return dx * dx + dy * dy < radius * radius
    }

    @Test func higherPriorityWinsTheContestedAnchor() {
        let viewport = Fixture.viewport(40.7150, -73.9560, zoom: 16, insets: .zero)
        let left = viewport.mercator(at: ScreenPoint(x: 170, y: 400))
        let right = viewport.mercator(at: ScreenPoint(x: 225, y: 400))
        func coordinate(_ point: MercatorPoint) -> (Double, Double) {
            let c = WebMercator.unprojectUnchecked(point)
            return (c.lat, c.lon)
        }
        let (la, lo) = coordinate(left)
        let (ra, ro) = coordinate(right)
        for (strong, weak) in [("alpha", "bravo"), ("bravo", "alpha")] {
            let subjects = [Fixture.subject("alpha", la, lo, streak: strong == "alpha" ? 200 : 10, best: true),
                            Fixture.subject("bravo", ra, ro, streak: strong == "bravo" ? 200 : 10, best: true)]
            let layout = Fixture.engine.layout(subjects: subjects, viewport: viewport, now: Fixture.now)
            #expect(layout.pin(strong)?.anchor == .below, "the higher priority label keeps its first choice")
            #expect(layout.pin(weak)?.anchor != .below)
            #expect(layout.pin(strong)!.zIndex > layout.pin(weak)!.zIndex)
        }
    }

    @Test func selectedFriendComesFirstThenBestFriendsByStreakThenRecency() {
        let subjects = [Fixture.subject("c", 40.71, -73.95, minutes: 1), Fixture.subject("a", 40.71, -73.95, streak: 5, best: true),
                        Fixture.subject("b", 40.71, -73.95, streak: 50, best: true), Fixture.subject("d", 40.71, -73.95, minutes: 90),
                        Fixture.subject("e", 40.71, -73.95, minutes: 90)]
        #expect(PinPriority.sorted(subjects, selected: nil).map(\.id) == ["b", "a", "c", "d", "e"])
        #expect(PinPriority.sorted(subjects, selected: "e").map(\.id) == ["e", "b", "a", "c", "d"])
    }

    /// The order of thousands of friends (sorted by digits, not by comparisons) is the rule's, as a plain sort in the
    /// test gives it: many ties on time and streak, repeated ids, times before and after `now`, a selected friend or none.
    @Test(arguments: [200, 3_000] as [Int])
    func aLargeCrowdIsOrderedAsTheRuleSays(count: Int) {
        var random = SplitMix64(seed: UInt64(count))
        let subjects = (0..<count).map { index in
            Fixture.subject("f\(Int.random(in: 0..<(count / 3), using: &random))", 40.71, -73.95, streak: Int.random(in: -2...5, using: &random) * 40,
                            best: Int.random(in: 0..<4, using: &random) == 0, minutes: Double(Int.random(in: -3...30, using: &random)) * 7.5)
        }
        for selected in [nil, subjects[count / 2].id] {
            let expected = subjects.indices.sorted { a, b in
                let (x, y) = (subjects[a], subjects[b])
                func rank(_ s: PinSubject) -> Int { (s.id == selected ? 0 : 2) + (s.bestFriend ? 0 : 1) }
                if rank(x) != rank(y) { return rank(x) < rank(y) }
                if x.bestFriend, x.snapstreak != y.snapstreak { return x.snapstreak > y.snapstreak }
                if x.lastSeen != y.lastSeen { return x.lastSeen > y.lastSeen }
                return x.id != y.id ? x.id < y.id : a < b
            }.map { subjects[$0] }
            #expect(PinPriority.sorted(subjects, selected: selected) == expected)
        }
    }

    @Test func togetherFriendsGroupAndSplitWhenZoomedIn() {
        let subjects = [Fixture.subject("maya", 40.72040, -73.95150, streak: 112, best: true), Fixture.subject("noah", 40.72060, -73.95120, minutes: 1),
                        Fixture.subject("zed", 40.72080, -73.95090, minutes: 2)]
        let far = Fixture.engine.layout(subjects: subjects, viewport: Fixture.viewport(40.7200, -73.9515, zoom: 14.5), now: Fixture.now)
        #expect(far.groups.count == 1 && far.groups[0].members == ["maya", "noah", "zed"] && far.groups[0].labelText == "Maya, Noah +1")
        // The zoom a tap on the group goes to is where it splits: one bubble just below it, more than one at it.
        let split = Double(far.groups[0].splitZoom ?? 99)
        let before = Fixture.engine.layout(subjects: subjects, viewport: Fixture.viewport(40.7200, -73.9515, zoom: split - 0.01), now: Fixture.now)
        let after = Fixture.engine.layout(subjects: subjects, viewport: Fixture.viewport(40.7200, -73.9515, zoom: split), now: Fixture.now)
        #expect(before.groups.map(\.members) == [["maya", "noah", "zed"]])
        #expect(after.groups.count + after.pins.filter { $0.visible && $0.groupId == nil }.count > 1)
        let pair = Fixture.engine.layout(subjects: Array(subjects.prefix(2)), viewport: Fixture.viewport(40.7200, -73.9515, zoom: 14.5), now: Fixture.now)
        #expect(pair.groups.first?.labelText == "Maya, Noah")
        let near = Fixture.engine.layout(subjects: Array(subjects.prefix(2)), viewport: Fixture.viewport(40.7205, -73.9514, zoom: 18.5), now: Fixture.now)
        #expect(near.groups.isEmpty && near.pins.allSatisfy { $0.visible && $0.groupId == nil })
    }

    @Test func previousAnchorsAreKeptWhileTheyFit() {
        let subjects = [Fixture.subject("solo", 40.7150, -73.9560)]
        let viewport = Fixture.viewport(40.7150, -73.9560, zoom: 15)
        let first = Fixture.engine.layout(subjects: subjects, viewport: viewport, now: Fixture.now)
        #expect(first.pin("solo")?.anchor == .below)
        let kept = Fixture.engine.layout(subjects: subjects, viewport: viewport, now: Fixture.now, previousAnchors: ["solo": .left])
        #expect(kept.pin("solo")?.anchor == .left)
    }

    @Test func labelTimesCountFromTheGivenNow() {
        let now = Fixture.now
        #expect(LastSeenText.text(lastSeen: now.addingTimeInterval(-30), now: now) == "now")
        #expect(LastSeenText.text(lastSeen: now.addingTimeInterval(-120), now: now) == "2m")
        #expect(LastSeenText.text(lastSeen: now.addingTimeInterval(-3 * 3600 - 5), now: now) == "3h")
        #expect(LastSeenText.text(lastSeen: now.addingTimeInterval(-4 * 86400), now: now) == "4d")
        #expect(LastSeenText.text(lastSeen: now.addingTimeInterval(600), now: now) == "now")
        let layout = Fixture.engine.layout(subjects: [Fixture.subject("jordan", 40.7150, -73.9560, minutes: 2)],
                                           viewport: Fixture.viewport(40.7150, -73.9560, zoom: 15), now: now)
        #expect(layout.pin("jordan")?.labelText == "Jordan · 2m")
    }

    @Test func jsonDecodesBackToTheSameLayout() throws {
        let layout = Fixture.engine.layout(subjects: Fixture.crowd(count: 20, seed: 3), viewport: Fixture.viewport(40.714, -73.951, zoom: 14), now: Fixture.now)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(PinLayoutResult.self, from: encoder.encode(layout)) == layout)
    }
}

@Suite("First names")
struct FirstNameTests {
    @Test(arguments: [("Jordan Lee", "Jordan"), ("Maya", "Maya"), (" Ann Lee", "Ann"), ("Ann  Lee", "Ann"), ("李 小龙", "李"), ("Zoë-Anne Ray", "Zoë-Anne")])
    func theFirstWordSpacesBeforeItSkipped(name: String, first: String) throws {
        let subject = PinSubject(id: "x", name: name, coordinate: try Coordinate(lat: 40.71, lon: -73.95), lastSeen: Fixture.now, snapstreak: 0,
                                 bestFriend: false)
        #expect(subject.firstName == first)
    }
}
