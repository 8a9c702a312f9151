import Foundation
import GeoCore
import PinLayout
import Testing
@testable import MapEngine

/// Issue 31's "done when", checked against a model of what is drawn (written here, not taken from the layout's
/// code): at 200 random viewports z11–18 over Williamsburg, with the scene's friends and with them and 100 random
/// friends, no label shares area with another avatar, group or label; no two drawn avatars share more than 15% of
/// their area (but the selected friend's, drawn above a group it stands on); every friend the layout calls visible
/// is drawn, as an avatar or in a drawn group, and one that is not drawn is off the free part of the screen; every
/// drawn pin either shows its label or says why not; every label's centre is nearer its own avatar than any other;
/// and groups depend on the zoom alone.
@Suite("Crowds at every zoom")
struct CrowdModelTests {
    /// What a layout draws: round avatars and label boxes, each with the symbol it belongs to.
    struct Drawn {
        var circles: [(owner: String, centre: ScreenPoint, radius: Double)] = []
        var labels: [(owner: String, box: ScreenRect)] = []

        init(_ layout: PinLayoutResult) {
            for pin in layout.pins where pin.visible && pin.groupId == nil {
                if let avatar = pin.avatarRect { circles.append((pin.id, avatar.center, avatar.width / 2)) }
                if let label = pin.labelRect { labels.append((pin.id, label)) }
            }
            for group in layout.groups where group.visible {
                if let avatar = group.avatarRect { circles.append((group.id, avatar.center, avatar.width / 2)) }
                if let label = group.labelRect { labels.append((group.id, label)) }
            }
        }
    }

    /// The share of one circle's area that another of the same radius covers, `distance` apart.
    static func overlapShare(distance: Double, radius: Double) -> Double {
        guard distance < 2 * radius else { return 0 }
        let u = distance / (2 * radius)
        return 2 / Double.pi * (acos(u) - u * (1 - u * u).squareRoot())
    }

    static func boxesShareArea(_ a: ScreenRect, _ b: ScreenRect) -> Bool {
        min(a.maxX, b.maxX) - max(a.minX, b.minX) > 1e-6 && min(a.maxY, b.maxY) - max(a.minY, b.minY) > 1e-6
    }

    static func boxMeetsCircle(_ box: ScreenRect, _ centre: ScreenPoint, _ radius: Double) -> Bool {
        let (x, y) = (min(max(centre.x, box.minX), box.maxX), min(max(centre.y, box.minY), box.maxY))
        let (dx, dy) = (centre.x - x, centre.y - y)
        return (dx * dx + dy * dy).squareRoot() < radius - 1e-6
    }

    static func friendSets() throws -> [(name: String, subjects: [PinSubject])] {
        let engine = try EngineFixture.engine.get()
        let scene = engine.subjects(try LiveFixture.samsFriends())
        var random = SplitMix64(seed: 31)
        let crowd = (0..<100).map { index in
            PinSubject(id: "r\(index)", name: ["Jordan", "Ava", "Theo", "Leo", "Priya"][index % 5] + " R",
                       coordinate: try! Coordinate(lat: Double.random(in: 40.700...40.728, using: &random),
                                                   lon: Double.random(in: -73.972 ... -73.930, using: &random)),
                       lastSeen: engine.scene.capturedAt.addingTimeInterval(-Double.random(in: 0...86_400, using: &random)),
                       snapstreak: Int.random(in: 0...300, using: &random), bestFriend: index % 6 == 0)
        }
        return [("the scene's friends", scene), ("the scene's friends and 100 random ones", scene + crowd)]
    }

    static func viewport(_ random: inout SplitMix64, zoom: Double? = nil) throws -> Viewport {
        let scene = try EngineFixture.engine.get().scene
        let centre = try Coordinate(lat: Double.random(in: 40.702...40.726, using: &random), lon: Double.random(in: -73.968 ... -73.934, using: &random))
        return try scene.viewport.with(Camera(center: centre, zoom: zoom ?? Double.random(in: 11...18, using: &random)))
    }

    @Test func noLabelOrAvatarCoversAnotherAt200Viewports() throws {
        let engine = try EngineFixture.engine.get()
        let pins = engine.pinEngine(scale: engine.scene.viewport.scale)
        for (name, subjects) in try Self.friendSets() {
            var random = SplitMix64(seed: 200)
            for _ in 0..<200 {
                let viewport = try Self.viewport(&random)
                let selected = Int.random(in: 0..<4, using: &random) == 0 ? subjects.randomElement(using: &random)?.id : nil
                let layout = pins.layout(subjects: subjects, viewport: viewport, selected: selected, now: engine.scene.capturedAt)
                let drawn = Drawn(layout)
                let at = "\(name) at z\(viewport.zoom) \(viewport.center)"
                for label in drawn.labels {
                    for circle in drawn.circles where Self.boxMeetsCircle(label.box, circle.centre, circle.radius) {
                        Issue.record("\(label.owner)'s label covers \(circle.owner)'s avatar, \(at)")
                    }
                    for other in drawn.labels where other.owner != label.owner && Self.boxesShareArea(label.box, other.box) {
                        Issue.record("\(label.owner)'s label covers \(other.owner)'s, \(at)")
                    }
                }
                Self.expectEveryVisibleFriendDrawn(layout, at)
                Self.expectLabelsNearerTheirOwnAvatars(drawn, at)
                for (i, a) in drawn.circles.enumerated() {
                    for b in drawn.circles[(i + 1)...] where a.owner != selected && b.owner != selected {
                        let share = Self.overlapShare(distance: hypot(a.centre.x - b.centre.x, a.centre.y - b.centre.y), radius: a.radius)
                        #expect(share <= 0.15, "\(a.owner) and \(b.owner) share \(share) of their avatars, \(at)")
                    }
                }
                for pin in layout.pins where pin.visible && pin.groupId == nil { #expect((pin.labelRect == nil) == (pin.labelHidden != nil)) }
                for group in layout.groups { #expect((group.labelRect == nil) == (group.labelHidden != nil)) }
            }
        }
    }

    /// Each label's centre is nearer its own avatar's centre than any other drawn avatar's, so that it cannot be
    /// read as naming a neighbour.
    static func expectLabelsNearerTheirOwnAvatars(_ drawn: Drawn, _ at: String) {
        for label in drawn.labels {
            let centre = label.box.center
            let distance = { (circle: (owner: String, centre: ScreenPoint, radius: Double)) in hypot(circle.centre.x - centre.x, circle.centre.y - centre.y) }
            guard let own = drawn.circles.first(where: { $0.owner == label.owner }) else {
                Issue.record("\(label.owner)'s label is drawn without its avatar, \(at)")
                continue
            }
            for other in drawn.circles where other.owner != label.owner && distance(other) <= distance(own) {
                Issue.record("\(label.owner)'s label is as near \(other.owner)'s avatar as its own, \(at)")
            }
        }
    }

    /// The default frame, where Leo's label once sat above Theo, nearer him than Leo: every label is nearer its own.
    @Test func theDefaultFramesLabelsSitNearerTheirOwnAvatars() throws {
        let engine = try EngineFixture.engine.get()
        let layout = engine.pinEngine(scale: engine.scene.viewport.scale).layout(subjects: engine.subjects(try LiveFixture.samsFriends()),
                                                                                  viewport: engine.scene.viewport, now: engine.scene.capturedAt)
        let drawn = Drawn(layout)
        #expect(drawn.labels.count == drawn.circles.count, "every pin and group of the default frame is named")
        Self.expectLabelsNearerTheirOwnAvatars(drawn, "the default frame")
    }

    /// A friend the layout calls visible is drawn: as an avatar of their own or in a drawn group that lists them.
    /// One it does not is hidden only for lying off the free part of the screen (never under a label).
    static func expectEveryVisibleFriendDrawn(_ layout: PinLayoutResult, _ at: String) {
        let groups = Dictionary(layout.groups.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for pin in layout.pins {
            guard pin.visible else {
                #expect(pin.hidden?.hasPrefix("outside") == true, "\(pin.id) is hidden: \(pin.hidden ?? "no reason"), \(at)")
                continue
            }
            if let id = pin.groupId {
                let group = groups[id]
                #expect(group?.visible == true && group?.avatarRect != nil && group?.members.contains(pin.id) == true, "\(pin.id) in \(id), \(at)")
            } else {
                #expect(pin.avatarRect != nil, "\(pin.id) is visible without an avatar, \(at)")
            }
        }
    }

    /// The z13.1 frame of issue 31, where Eli's avatar once lay hidden under a group's label: every friend whose
    /// point is well inside the free part of the screen (two avatars from its edges; all but Jordan, at the west
    /// edge) is drawn, and no label covers an avatar.
    @Test func everyFriendOfTheCrowdFrameIsDrawn() throws {
        let engine = try EngineFixture.engine.get()
        let subjects = engine.subjects(try LiveFixture.samsFriends())
        let viewport = try engine.scene.viewport.with(Camera(center: Coordinate(lat: 40.71526, lon: -73.95104), zoom: 13.1))
        let layout = engine.pinEngine(scale: viewport.scale).layout(subjects: subjects, viewport: viewport, now: engine.scene.capturedAt)
        let well = viewport.freeRect.inset(by: EdgeInsets(all: 2 * engine.pinLook.layout.avatarSize))
        let inside = subjects.filter { well.contains(viewport.point(forMercator: WebMercator.projectUnchecked(lat: $0.coordinate.lat, lon: $0.coordinate.lon))) }
        #expect(inside.contains { $0.id == "eli" } && inside.count >= subjects.count - 1, "\(inside.map(\.id)) are well inside the frame")
        let drawn = Drawn(layout)
        let groupOf = Dictionary(layout.pins.compactMap { pin in pin.groupId.map { (pin.id, $0) } }, uniquingKeysWith: { first, _ in first })
        for subject in inside {
            let owner = groupOf[subject.id] ?? subject.id
            #expect(drawn.circles.contains { $0.owner == owner }, "\(subject.id) is drawn (as \(owner))")
        }
        Self.expectEveryVisibleFriendDrawn(layout, "z13.1")
        // Jordan's group at the west edge, boxed in by Priya, Eli and the Maya group, is named below, running left.
        let jordans = try #require(layout.groups.first { $0.members.contains("jordan") })
        #expect(jordans.labelRect != nil, "\(jordans.labelHidden ?? "")")
        Self.expectLabelsNearerTheirOwnAvatars(drawn, "z13.1")
        for label in drawn.labels {
            for circle in drawn.circles where Self.boxMeetsCircle(label.box, circle.centre, circle.radius) {
                Issue.record("\(label.owner)'s label covers \(circle.owner)'s avatar")
            }
        }
    }

    /// Who is grouped with whom, among the friends a layout draws: friend id → the ids they share a bubble with.
    static func partition(_ layout: PinLayoutResult) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for pin in layout.pins where pin.visible && pin.groupId == nil { result[pin.id] = [pin.id] }
        for group in layout.groups where group.visible { for member in group.members { result[member] = Set(group.members) } }
        return result
    }

    /// Zooming in from 11 to 18 and out again by quarter zooms, labels carried from frame to frame, the same
    /// friends share a bubble at each zoom both ways; a fractional zoom groups as the whole zoom below it,
    /// wherever the map is centred; and groups only split as the map zooms in (each bubble at z+1 lies inside
    /// one at z).
    @Test func groupsDependOnTheZoomAloneAndNestAsTheMapZooms() throws {
        let engine = try EngineFixture.engine.get()
        let pins = engine.pinEngine(scale: engine.scene.viewport.scale)
        let now = engine.scene.capturedAt
        for (_, subjects) in try Self.friendSets() {
            var random = SplitMix64(seed: 18)
            for _ in 0..<10 {
                let start = try Self.viewport(&random, zoom: 11)
                let zooms = stride(from: 11.0, through: 18, by: 0.25).map { $0 }
                var anchors: [String: LabelAnchor] = [:]
                var inward: [Double: [String: Set<String>]] = [:]
                for zoom in zooms {
                    let layout = pins.layout(subjects: subjects, viewport: try start.with(Camera(center: start.center, zoom: zoom)), now: now,
                                             previousAnchors: anchors)
                    (anchors, inward[zoom]) = (layout.anchors, Self.partition(layout))
                }
                for zoom in zooms.reversed() {
                    let layout = pins.layout(subjects: subjects, viewport: try start.with(Camera(center: start.center, zoom: zoom)), now: now,
                                             previousAnchors: anchors)
                    anchors = layout.anchors
                    // Labels may hide different avatars either way (they keep their anchors); the friends drawn both ways
                    // share bubbles alike.
                    for (friend, mates) in Self.partition(layout) {
                        if let before = inward[zoom]?[friend] { #expect(mates == before, "\(friend) zooming out at z\(zoom)") }
                    }
                }
                for zoom in zooms where zoom < 18 {
                    let moved = try Self.viewport(&random, zoom: zoom.rounded(.down) + Double.random(in: 0..<1, using: &random))
                    let here = Self.partition(pins.layout(subjects: subjects, viewport: try start.with(Camera(center: start.center, zoom: zoom)), now: now))
                    let there = Self.partition(pins.layout(subjects: subjects, viewport: moved, now: now))
                    for (friend, mates) in here { if let other = there[friend] { #expect(mates == other, "\(friend) at z\(zoom) and z\(moved.zoom)") } }
                    guard zoom == zoom.rounded(.down), let closer = inward[zoom + 1], let farther = inward[zoom] else { continue }
                    for (friend, mates) in closer { if let outer = farther[friend] { #expect(mates.isSubset(of: outer), "\(friend) at z\(zoom + 1)") } }
                }
            }
        }
    }
}
