import Foundation
import LiveMap
import Raster
import Testing
@testable import MapEngine
@testable import MapScene
@testable import PinDrawing

/// Actionmoji drawings: each pose changes the avatar's pixels where its drawing goes, at every pin size (a group's
/// small face, the 48 pt pin at scales 1 to 3), each differently, and the same inputs give the same bytes.
@Suite("Actionmoji drawings")
struct PoseDrawingTests {
    /// Avatar widths in pixels: a group's face at scale 1, the pin at scales 1, 2 and 3.
    static let sides = [19.0, 48, 96, 144]

    static func draw(_ pose: Pose, side: Double, style: AvatarStyle = .badge) throws -> Canvas {
        let engine = try EngineFixture.engine.get()
        var friend = try #require(engine.scene.friend(id: "theo"))
        friend.pose = pose
        let base = engine.pinLook
        let look = PinLook(layout: base.layout, avatar: style, ring: base.ring, selectedRing: base.selectedRing, initials: base.initials,
                           initialsFontSize: base.initialsFontSize, labelBackground: base.labelBackground, labelInk: base.labelInk,
                           labelSecondary: base.labelSecondary, shadow: base.shadow, shadowBlur: base.shadowBlur, shadowOffsetY: base.shadowOffsetY)
        let renderer = PinRenderer(look: look, font: engine.labelFont, friends: [friend.id: friend], avatars: [:],
                                   looks: [friend.id: engine.scene.look(of: friend.id, color: friend.color)], shadows: ShadowMasks())
        let size = Int(side * 4)
        let canvas = try Canvas(width: size, height: size, background: .white)
        renderer.drawAvatar(friend.id, in: Rect(x: side * 1.5, y: side * 1.5, width: side, height: side), selected: false, scale: side / 48, into: canvas)
        return canvas
    }

    /// The share of pixels in the quarter of the canvas around `corner` (fractions of the side) that differ.
    static func changed(_ a: Canvas, _ b: Canvas, around center: (x: Double, y: Double), side: Double) -> Double {
        let (x0, y0) = (Int((center.x - 0.5) * side + side * 2), Int((center.y - 0.5) * side + side * 2))
        var (differ, total) = (0, 0)
        for y in max(0, y0)..<min(a.height, y0 + Int(side)) {
            for x in max(0, x0)..<min(a.width, x0 + Int(side)) {
                total += 1
                if a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differ += 1 }
            }
        }
        return total == 0 ? 0 : Double(differ) / Double(total)
    }

    @Test(arguments: sides)
    func eachPoseDrawsWhereItsDrawingGoesAndDiffersFromTheOthers(side: Double) throws {
        let standing = try Self.draw(.standing, side: side)
        // Where each drawing is, in avatar widths from the avatar's centre: the car's body below, the window's frame at
        // the side, the balloons up and left, the "z z" up and right.
        let spots: [Pose: (x: Double, y: Double)] = [.driving: (0, 0.45), .flying: (-0.6, 0), .birthday: (-0.9, -0.9), .asleep: (0.7, -0.6)]
        var images: [Pose: [UInt8]] = [.standing: standing.image().straightRGBA]
        for (pose, spot) in spots {
            let drawn = try Self.draw(pose, side: side)
            #expect(Self.changed(drawn, standing, around: spot, side: side) > 0.1, "\(pose) at \(side) px draws at \(spot)")
            #expect(try Self.draw(pose, side: side).image().straightRGBA == drawn.image().straightRGBA, "the same inputs, the same bytes")
            images[pose] = drawn.image().straightRGBA
        }
        #expect(Set(images.values).count == Pose.allCases.count, "five poses, five different pictures")
    }

    /// The standing figure, the other avatar style, is posed too.
    @Test func theStandingFigureIsPosedToo() throws {
        let standing = try Self.draw(.standing, side: 96, style: .standing)
        for pose in Pose.allCases where pose != .standing {
            #expect(try Self.draw(pose, side: 96, style: .standing).image().straightRGBA != standing.image().straightRGBA, "\(pose)")
        }
    }
}
