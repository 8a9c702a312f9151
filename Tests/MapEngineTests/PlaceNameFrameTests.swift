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

    /// The z13.1 crowd frame, where "CROWN HEIGHTS" ran under the credit: its place names keep clear of the credit's
    /// plate and the bottom inset, a name whose first spot meets them moving or staying out.
    @Test func placeNamesKeepClearOfTheCreditAndTheBottomInset() throws {
        let engine = try EngineFixture.engine.get()
        let viewport = try engine.scene.viewport.with(Camera(center: Coordinate(lat: 40.71526, lon: -73.95104), zoom: 13.1))
        let layout = try engine.layout(viewport, friends: try LiveFixture.samsFriends(), now: engine.scene.capturedAt)
        let plan = engine.plan(viewport, layers: [.base, .heat, .pins], layout: layout, friends: [], card: nil, now: engine.scene.capturedAt)
        let reserved = engine.reservedBoxes(viewport)
        #expect(reserved.count == 2, "the credit and the bottom inset")
        let anywhere = engine.baseMap.shownPlaceNames(plan.names, of: plan.view, avoiding: engine.pinBoxes(layout))
        #expect(anywhere.contains { box in reserved.contains { $0.intersects(box) } }, "without them, a name meets the credit or the inset")
        let shown = engine.baseMap.shownPlaceNames(plan.names, of: plan.view, avoiding: plan.avoiding)
        #expect(!shown.isEmpty && shown.allSatisfy { box in !reserved.contains { $0.intersects(box) } })
    }

    /// At z15 a Williamsburg frame (the scene's size, centred between Bedford Av, Lorimer St and Marcy Av), with Sam's
    /// friends' pins, names its subway stations beside their marks, clear of the pins (the frame without pins names all
    /// three: `StationTests`).
    @Test func theWilliamsburgFrameAtZoom15NamesItsStations() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let viewport = try Viewport(center: Coordinate(lat: 40.7135, lon: -73.9545), zoom: 15, size: scene.viewport.size, scale: scene.viewport.scale,
                                    insets: scene.viewport.insets)
        let layout = try engine.layout(viewport, friends: try LiveFixture.samsFriends(), now: scene.capturedAt)
        let view = MapView(viewport: viewport)
        let names = engine.baseMap.placeNames(for: view)
        let pins = engine.pinBoxes(layout)
        let shown = engine.baseMap.namePlacements(names, of: view, avoiding: pins).filter { names[$0.name].kind == .station }
        #expect(Set(shown.map { names[$0.name].name }).isSuperset(of: ["Lorimer St", "Marcy Av"]), "\(shown.map { names[$0.name].name })")
        // Theo stands at Bedford Av: his pin covers the station's mark and every side of it, so its name is left out.
        let bedford = try #require(names.first { $0.name == "Bedford Av" && $0.kind == .station })
        #expect(([bedford.box] + bedford.alternatives.map(\.box)).allSatisfy { box in pins.contains { $0.intersects(box) } })
        #expect(!shown.contains { names[$0.name].name == "Bedford Av" })
        #expect(shown.allSatisfy { placement in !pins.contains { $0.intersects(names[placement.name].outline(placement.option).box) } })
    }
}
