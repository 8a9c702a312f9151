import Foundation
import Raster
import Testing
@testable import MapEngine
@testable import MapScene
@testable import PinDrawing

/// Cartoon avatars drawn from each person's look: the colours where a head and shoulders has them, the same
/// pixels every time, Sam as the app's fixture describes him, and the style's choice of badge or standing figure.
@Suite("Cartoon avatars")
struct AvatarTests {
    static func close(_ a: Color, _ hex: String) -> Bool {
        guard let b = try? Color(hex: hex) else { return false }
        return abs(Int(a.r) - Int(b.r)) <= 3 && abs(Int(a.g) - Int(b.g)) <= 3 && abs(Int(a.b) - Int(b.b)) <= 3
    }

    @Test func theBadgeShowsTheLooksColoursAndRepeatsExactly() throws {
        let look = AvatarLook(skin: "#C68642", hair: .short, hairColor: "#2A1B12", eyes: .round, mouth: .smile, facialHair: .none, top: "#3CC28A")
        let side = 150
        func paint() throws -> Canvas {
            let canvas = try Canvas(width: side, height: side)
            AvatarPainter(look: look).drawBadge(in: Rect(x: 0, y: 0, width: Double(side), height: Double(side)), background: .black, into: canvas)
            return canvas
        }
        let badge = try paint()
        let (c, d) = (Double(side) / 2, Double(side))
        let u = 0.2 * d
        let head = c - 0.1 * d
        #expect(Self.close(badge.pixel(x: Int(c), y: Int(head - 0.22 * u)), look.skin), "the forehead is skin")
        #expect(Self.close(badge.pixel(x: Int(c), y: Int(head - 0.95 * u)), look.hairColor), "the crown is hair")
        #expect(Self.close(badge.pixel(x: Int(c), y: Int(c + 0.45 * d)), look.top), "the shoulders wear the top")
        #expect(badge.pixel(x: 2, y: 2).a == 0, "nothing outside the badge's circle")
        #expect(try paint().image().straightRGBA == badge.image().straightRGBA, "the same look gives the same pixels")
    }

    @Test func samLooksAsTheFixtureSaysAndOthersGetAStableLook() throws {
        let scene = try EngineFixture.engine.get().scene
        let sam = try #require(scene.looks[scene.viewer.username])
        #expect(sam.hair == .curly && sam.facialHair == .shortBeard && sam.top == "#EDE3CF", "curly dark hair, short beard, cream jacket")
        #expect(scene.friends.allSatisfy { scene.looks[$0.id] != nil }, "every fixture friend has a look")
        let stranger = scene.look(of: "someone_new", color: "#123456")
        #expect(stranger == scene.look(of: "someone_new", color: "#123456") && stranger.top == "#123456")
        #expect(Set((0..<40).map { scene.look(of: "person\($0)", color: "#123456") }).count > 20, "derived looks vary between people")
    }

    /// The style chooses: a badge in the white ring, a figure standing on a ground shadow, or initials.
    @Test(arguments: AvatarStyle.allCases)
    func theStyleChoosesTheAvatar(style: AvatarStyle) throws {
        let engine = try EngineFixture.engine.get()
        let base = engine.pinLook
        let look = PinLook(layout: base.layout, avatar: style, ring: base.ring, selectedRing: base.selectedRing, initials: base.initials,
                           initialsFontSize: base.initialsFontSize, labelBackground: base.labelBackground, labelInk: base.labelInk,
                           labelSecondary: base.labelSecondary, shadow: base.shadow, shadowBlur: base.shadowBlur, shadowOffsetY: base.shadowOffsetY)
        let friend = try #require(engine.scene.friend(id: "theo"))
        let renderer = PinRenderer(look: look, font: engine.labelFont, friends: [friend.id: friend], avatars: [:],
                                   looks: [friend.id: engine.scene.look(of: friend.id, color: friend.color)], shadows: ShadowMasks())
        let canvas = try Canvas(width: 200, height: 200, background: .white)
        renderer.drawAvatar(friend.id, in: Rect(x: 40, y: 40, width: 120, height: 120), selected: false, scale: 1, into: canvas)
        let ringTop = canvas.pixel(x: 100, y: 42)
        let groundShadow = canvas.pixel(x: 100, y: 155)
        let skin = (0..<200).contains { x in (40..<160).contains { y in Self.close(canvas.pixel(x: x, y: y), "#C68642") } }
        switch style {
        case .badge: #expect(ringTop == .white && skin)
        case .standing: #expect(groundShadow.r < 230 && groundShadow.r == groundShadow.b && skin, "a grey ground shadow under the figure")
        case .initials: #expect(!skin, "initials on the friend's colour, no face")
        }
    }
}
