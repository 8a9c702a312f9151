import Foundation
import GeoCore
import PinLayout
import Raster
import Testing
@testable import MapEngine

/// The selected frame: the friend at their camera, never grouped, and the card where its JSON says.
@Suite("The selected frame")
struct SelectedFrameTests {
    static func isYellow(_ color: Color) -> Bool { color.r > 235 && color.g > 235 && color.b < 80 }

    @Test func theRingSitsOnTheJSONPointAndTheCardWhereItsRectanglesSay() throws {
        let engine = try EngineFixture.engine.get()
        let friends = try LiveFixture.samsFriends()
        let scene = engine.scene
        let scale = 2.0
        let start = try Viewport(center: scene.viewport.center, zoom: scene.viewport.zoom, size: scene.viewport.size, scale: scale,
                                 insets: scene.viewport.insets)
        for friend in friends {
            let frame = try engine.renderSelectedFrame(start, friends: friends, selected: friend.id, now: scene.capturedAt)
            let layout = try #require(frame.layout)
            let pin = try #require(layout.pin(friend.id))
            #expect(pin.groupId == nil)
            let avatar = try #require(pin.avatarRect)
            let row = Int((avatar.center.y * scale).rounded())
            let yellow = (0..<frame.canvas.width).filter { Self.isYellow(frame.canvas.pixel(x: $0, y: row)) }
            let first = try #require(yellow.first, "\(friend.id) wears the yellow ring"), last = try #require(yellow.last)
            let centre = (Double(first + last) + 1) / 2 / scale
            #expect(abs(centre - pin.screenPoint.x) <= 0.5, "\(friend.id): ring centre \(centre) pt, JSON point \(pin.screenPoint.x) pt")
            let card = try #require(layout.card)
            #expect(card.friend == friend.id && card.deepLink == "snapchat://chat/\(friend.id)" && card.name == friend.name)
            let button = card.chatButtonRect
            #expect(frame.canvas.pixel(x: Int(button.minX * scale) + 30, y: Int(button.center.y * scale)) == Color(r: 0x0E, g: 0xAD, b: 0xFF))
            let blank = ScreenPoint(x: card.rect.maxX - 10, y: card.chatButtonRect.minY - 10)
            #expect(frame.canvas.pixel(x: Int(blank.x * scale), y: Int(blank.y * scale)) == .white, "the sheet is white where nothing is drawn")
            #expect(card.rect.maxY == start.size.height && card.rect.height == scene.selection.cardHeight)
        }
    }
}
