import Foundation
import GeoCore
import Raster
@testable import BaseMap
import Testing
@testable import MapEngine

/// The default Williamsburg frame names the places a New Yorker looks for, clear of the friends' pins: where
/// pins cover a neighbourhood's first spot, its name moves to another point inside it.
@Suite("Place names in the Williamsburg frame")
struct PlaceNameFrameTests {
    @Test func theDefaultFrameNamesWilliamsburgClearOfThePins() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let layout = try engine.layout(scene.viewport, friends: try LiveFixture.samsFriends(), now: scene.capturedAt)
        let view = MapView(viewport: scene.viewport)
        let names = engine.baseMap.placeNames(for: view)
        let pins = engine.pinBoxes(layout)
        let shown = engine.baseMap.shownPlaceNames(names, of: view, avoiding: pins)
        let named = Set(zip(names, names.map { name in shown.contains { box in name.box == box || name.alternatives.contains { $0.box == box } } })
            .filter(\.1).map(\.0.name))
        #expect(named.isSuperset(of: ["Williamsburg", "Greenpoint", "South Williamsburg", "East River"]), "\(named)")
        let williamsburg = try #require(names.first { $0.name == "Williamsburg" })
        #expect(pins.contains { $0.intersects(williamsburg.box) }, "its first spot is under a pin, so the name had to move")
        #expect(shown.allSatisfy { box in !pins.contains { $0.intersects(box) } })
    }
}
