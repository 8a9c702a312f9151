import Foundation
import GeoCore
import PinLayout
import Testing
@testable import MapEngine

/// The selection is always about one friend, at the camera that zooms to them.
@Suite("Selection rules")
struct SelectionRuleTests {
    @Test func theSelectedFriendStandsAloneAtTheirCameraFromAnyStart() throws {
        let engine = try EngineFixture.engine.get()
        let friends = try LiveFixture.samsFriends()
        let scene = engine.scene
        var random = SplitMix64(seed: 14)
        for friend in friends {
            for _ in 0..<12 {
                let start = try scene.viewport.with(Camera(center: Coordinate(lat: 40.705 + random.unit() * 0.025, lon: -73.975 + random.unit() * 0.035),
                                                           zoom: 12 + random.unit() * 6))
                let layout = try engine.layout(start, friends: friends, now: scene.capturedAt)
                let answer = try engine.zoom(to: friend.id, friends: friends, from: start, layout: layout)
                let selectedView = try start.with(answer.camera)
                let selected = try engine.layout(selectedView, friends: friends, selected: friend.id, now: scene.capturedAt)
                let pin = try #require(selected.pin(friend.id))
                #expect(pin.groupId == nil && pin.selected, "\(friend.id) is never grouped when selected")
                let avatar = try #require(pin.avatarRect, "\(friend.id) has an avatar at its camera")
                #expect(abs(avatar.center.x - pin.screenPoint.x) <= 0.5 && abs(avatar.center.y - pin.screenPoint.y) <= 0.5)
                #expect(!selected.groups.contains { $0.id == "group-\(friend.id)" && !$0.members.contains(friend.id) })
            }
        }
    }

    @Test func groupIdsDoNotFollowTheSelection() throws {
        let engine = try EngineFixture.engine.get()
        let friends = try LiveFixture.samsFriends()
        let scene = engine.scene
        let plain = try engine.layout(scene.viewport, friends: friends, now: scene.capturedAt)
        #expect(plain.groups.contains { $0.id == "group-maya" && Set($0.members) == ["maya", "noah"] })
        let noah = try engine.layout(scene.viewport, friends: friends, selected: "noah", now: scene.capturedAt)
        #expect(!noah.groups.contains { $0.id == "group-noah" } && noah.pin("noah")?.groupId == nil)
    }

    @Test func theSelectionNeverZoomsPastItsMaximumAndSaysWhenItKeepsTheUsers() throws {
        let engine = try EngineFixture.engine.get()
        let friends = try LiveFixture.samsFriends()
        let scene = engine.scene
        let near = try scene.viewport.with(Camera(center: scene.viewport.center, zoom: 21))
        let kept = try engine.zoom(to: "jordan", friends: friends, from: near, layout: engine.layout(near, friends: friends, now: scene.capturedAt))
        #expect(kept.camera.zoom == 21 && kept.keepsUserZoom)
        let far = try engine.zoom(to: "jordan", friends: friends, from: scene.viewport,
                                  layout: engine.layout(scene.viewport, friends: friends, now: scene.capturedAt))
        #expect(far.camera.zoom == scene.selection.zoom && !far.keepsUserZoom && far.camera.zoom <= scene.selection.maxZoom)
        let range = SelectionCamera.cardHeightRange(for: scene.viewport)
        #expect(range == 0...792)
        let layout = try engine.layout(scene.viewport, friends: friends, now: scene.capturedAt)
        #expect(throws: Never.self) { try engine.zoom(to: "group-maya", friends: friends, from: scene.viewport, layout: layout, cardHeight: 700) }
        #expect(throws: Never.self) { try engine.zoom(to: "jordan", friends: friends, from: scene.viewport, layout: layout, cardHeight: 700) }
        #expect(throws: BadField.outOfRange("card-height", given: "793.0", allowed: range)) {
            try engine.zoom(to: "group-maya", friends: friends, from: scene.viewport, layout: layout, cardHeight: 793)
        }
    }
}
