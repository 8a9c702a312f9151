import Foundation
import GeoCore
import PinLayout
import Raster
import Testing
@testable import MapEngine

@Suite("Pins of the Williamsburg scene")
struct PinEngineTests {
    @Test func theTogetherPairIsAGroupAtTheDefaultZoomAndTwoPinsAtEighteen() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let friends = try LiveFixture.samsFriends()
        let layout = try engine.layout(scene.viewport, friends: friends, now: scene.capturedAt)
        let group = try #require(layout.groups.first { $0.members.contains("noah") })
        #expect(Set(group.members) == ["maya", "noah"] && group.labelText == "Maya, Noah")
        let maya = try #require(scene.friend(id: "maya"))
        let close = try scene.viewport.with(Camera(center: maya.coordinate, zoom: 18))
        let near = try engine.layout(close, friends: friends, now: scene.capturedAt)
        #expect(near.pin("maya")?.groupId == nil && near.pin("noah")?.groupId == nil)
        #expect(near.pin("maya")?.visible == true && near.pin("noah")?.visible == true)
        #expect(layout.pin("jordan")?.labelText == "Jordan · 2m")
    }

    /// Labels that went missing: Leo's in the default frame (all four side anchors were blocked), and Jordan's,
    /// the top-priority friend, at z14 (Ava's avatar, placed before any label, took her only spot).
    @Test func leoAndJordanKeepTheirLabels() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let friends = try LiveFixture.samsFriends()
        let layout = try engine.layout(scene.viewport, friends: friends, now: scene.capturedAt)
        #expect(layout.pin("leo")?.labelRect != nil, "\(layout.pin("leo")?.labelHidden ?? "")")
        let north = try scene.viewport.with(Camera(center: Coordinate(lat: 40.7175, lon: -73.9555), zoom: 14))
        let z14 = try engine.layout(north, friends: friends, now: scene.capturedAt)
        #expect(z14.pin("jordan")?.labelRect != nil && z14.pin("jordan")?.labelText.hasPrefix("Jordan") == true)
        #expect(z14.pins.allSatisfy { $0.visible || $0.hidden != nil })
    }

    @Test func theGhostedFriendIsInNoOutput() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let friends = try LiveFixture.samsFriends()
        let layout = try engine.layout(scene.viewport, friends: friends, now: scene.capturedAt)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let json = String(decoding: try encoder.encode(layout), as: UTF8.self)
        #expect(!json.contains("rae") && !json.contains("Rae"))
        #expect(!friends.contains { $0.id == "rae" } && friends.count == 8, "the store holds Rae, in Ghost Mode: the rule hides her")
        #expect(throws: UnknownFriend.self) { try engine.layout(scene.viewport, friends: friends, selected: "rae", now: scene.capturedAt) }
        #expect(throws: UnknownFriend.self) { try engine.zoom(to: "rae", friends: friends, from: scene.viewport, layout: layout) }
        let ghost = try WebMercator.project(Coordinate(lat: 40.71300, lon: -73.96300))
        let where_ = scene.viewport.point(forMercator: ghost)
        #expect(engine.hit(where_, in: layout) == .none, "a tap where the ghost stands hits nothing")
    }

    @Test func tapOnJordanThenZoomPutsJordanInTheMiddleOfTheFreeArea() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let friends = try LiveFixture.samsFriends()
        let layout = try engine.layout(scene.viewport, friends: friends, now: scene.capturedAt)
        let jordan = try #require(layout.pin("jordan")?.avatarRect)
        #expect(engine.hit(jordan.center, in: layout).id == "jordan")
        let answer = try engine.zoom(to: "jordan", friends: friends, from: scene.viewport, layout: layout)
        #expect(answer.camera.zoom == scene.selection.zoom)
        #expect(abs(answer.screenPoint.x - answer.freeCenter.x) <= 0.5 && abs(answer.screenPoint.y - answer.freeCenter.y) <= 0.5)
        let group = try engine.zoom(to: "group-maya", friends: friends, from: scene.viewport, layout: layout)
        #expect(group.camera.zoom <= scene.selection.maxZoom)
    }

    @Test func framesWithPinsAreDeterministicAndShowTheSelection() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let friends = try LiveFixture.samsFriends()
        let viewport = try scene.viewport.with(Camera(center: scene.viewport.center, zoom: 14.5))
        let small = try Viewport(center: viewport.center, zoom: 14.5, size: ScreenSize(width: 393, height: 852), scale: 1, insets: viewport.insets)
        let first = try engine.renderFrame(small, layers: [.base, .pins], friends: friends, selected: "jordan", now: scene.capturedAt)
        let second = try engine.renderFrame(small, layers: [.base, .pins], friends: friends, selected: "jordan", now: scene.capturedAt)
        #expect(try PNGCodec.encode(first.canvas) == PNGCodec.encode(second.canvas))
        let jordan = try #require(first.layout?.pin("jordan")?.avatarRect)
        let ring = first.canvas.pixel(x: Int(jordan.center.x), y: Int(jordan.minY + 1))
        #expect(ring == engine.pinLook.selectedRing, "the selected pin wears Snapchat yellow")
        let theo = try #require(first.layout?.pin("theo")?.avatarRect)
        #expect(first.canvas.pixel(x: Int(theo.center.x), y: Int(theo.minY + 1)) == engine.pinLook.ring)
    }
}
