import Foundation
import GeoCore
import Testing
@testable import PinLayout

/// A pin's own pose goes around its label, not in its way: on an open screen a lone posed pin's label takes its first
/// anchor (or the one it had), clear of its own pose and avatar, moved straight out from where it would sit without
/// the pose; another pin's pose still keeps a label out.
@Suite("A pin's own pose and its label")
struct OwnPoseLabelTests {
    /// Draws beyond each avatar the box its pose names, "box x0 y0 x1 y1" in avatar widths from the avatar's centre.
    struct BoxFootprint: PinFootprinting {
        func extent(poses: [String], avatar: ScreenRect, scale: Double) -> ScreenRect? {
            let numbers = poses.first.map { $0.split(separator: " ").dropFirst().compactMap { Double($0) } } ?? []
            guard numbers.count == 4 else { return nil }
            let (cx, cy, w) = (avatar.center.x, avatar.center.y, avatar.width)
            return ScreenRect(x: cx + numbers[0] * w, y: cy + numbers[1] * w, width: (numbers[2] - numbers[0]) * w, height: (numbers[3] - numbers[1]) * w)
        }
    }

    static let posed = PinLayoutEngine(style: PinStyle(), measurer: FixedWidthMeasurer(), footprints: BoxFootprint())
    static let centre = (lat: 40.7150, lon: -73.9560)

    /// A random box reaching up to one and a half avatar widths out on any side, as poses do (the screen leaves a
    /// label room past it on every side).
    static func pose(_ random: inout SplitMix64) -> String {
        let (x0, y0) = (Double.random(in: -1.5 ... 0.3, using: &random), Double.random(in: -1.5 ... 0.3, using: &random))
        let (x1, y1) = (Double.random(in: (x0 + 0.2)...1.5, using: &random), Double.random(in: (y0 + 0.2)...1.5, using: &random))
        return "box \(x0) \(y0) \(x1) \(y1)"
    }

    static func solo(_ pose: String, lat: Double = centre.lat, lon: Double = centre.lon, id: String = "solo") -> PinSubject {
        let plain = Fixture.subject(id, lat, lon)
        return PinSubject(id: plain.id, name: plain.name, coordinate: plain.coordinate, lastSeen: plain.lastSeen, snapstreak: 0, bestFriend: false, pose: pose)
    }

    /// Random poses, every anchor (none given: the first): the label sits on it, covers neither its pose nor its
    /// avatar's circle, and is the label drawn without the pose, unmoved when it missed the pose, else moved along
    /// one of the anchor's directions to one gap past the pose.
    @Test(arguments: [1, 2] as [UInt64])
    func aLonePinsLabelTakesItsAnchorClearOfItsOwnPose(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let viewport = Fixture.viewport(Self.centre.lat, Self.centre.lon, zoom: 16, insets: .zero)
        let gap = Self.posed.style.labelGap
        var moved = 0
        for _ in 0..<40 {
            let subject = Self.solo(Self.pose(&random))
            for previous in [nil] + LabelAnchor.allCases {
                let anchors = previous.map { ["solo": $0] } ?? [:]
                let pin = try #require(Self.posed.layout(subjects: [subject], viewport: viewport, now: Fixture.now, previousAnchors: anchors).pin("solo"))
                let plain = try #require(Fixture.engine.layout(subjects: [subject], viewport: viewport, now: Fixture.now, previousAnchors: anchors).pin("solo"))
                let (avatar, label, unmoved) = (try #require(pin.avatarRect), try #require(pin.labelRect, "\(subject.pose)"), try #require(plain.labelRect))
                let own = try #require(BoxFootprint().extent(poses: [subject.pose], avatar: avatar, scale: 3))
                #expect(pin.anchor == previous ?? LabelAnchor.allCases[0], "\(subject.pose): \(String(describing: pin.anchor))")
                #expect(!label.overlaps(own) && !SymbolPlacement.intersects(label, circle: avatar.center, radius: avatar.width / 2), "\(subject.pose) \(label)")
                guard unmoved.overlaps(own) else {
                    #expect(label == unmoved)
                    continue
                }
                moved += 1
                let across = label.y == unmoved.y && [own.maxX + gap, own.minX - gap - label.width].contains(label.x)
                let down = label.x == unmoved.x && [own.maxY + gap, own.minY - gap - label.height].contains(label.y)
                #expect(across || down, "\(subject.pose): \(label) from \(unmoved)")
            }
        }
        #expect(moved > 40, "the poses sample covers labels' first boxes (\(moved) moved)")
    }

    /// A neighbour's pose where the label's first anchor would go still keeps the label off it.
    @Test func anotherPinsPoseStillBlocks() throws {
        let viewport = try Viewport(center: Coordinate(lat: Self.centre.lat, lon: Self.centre.lon), zoom: 16, size: ScreenSize(width: 900, height: 600), scale: 3)
        // The neighbour stands three avatars to the right, its label clear of the first's; its pose reaches under the first pin.
        let point = try viewport.point(for: Coordinate(lat: Self.centre.lat, lon: Self.centre.lon))
        let far = try viewport.coordinate(at: ScreenPoint(x: point.x + 150, y: point.y))
        let subjects = [Self.solo("standing"), Self.solo("box -3.8 0.4 -2 1.2", lat: far.lat, lon: far.lon, id: "neighbour")]
        let layout = Self.posed.layout(subjects: subjects, viewport: viewport, now: Fixture.now)
        let (pin, neighbour) = (try #require(layout.pin("solo")), try #require(layout.pin("neighbour")))
        let neighbourAvatar = try #require(neighbour.avatarRect)
        let pose = try #require(BoxFootprint().extent(poses: [neighbour.pose], avatar: neighbourAvatar, scale: 3))
        let label = try #require(pin.labelRect)
        #expect(pin.anchor != .below && !label.overlaps(pose), "\(String(describing: pin.anchor)) \(label) \(pose)")
        let plain = Fixture.engine.layout(subjects: subjects, viewport: viewport, now: Fixture.now)
        #expect(plain.pin("solo")?.anchor == .below, "without poses it goes below")
    }
}
