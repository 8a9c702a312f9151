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
        #expect(pins.contains { $0.overlaps(williamsburg.box) }, "its first spot is under a pin, so the name had to move")
        #expect(shown.allSatisfy { box in !pins.contains { $0.overlaps(box) } })
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
        #expect(anywhere.contains { box in reserved.contains { $0.overlaps(box) } }, "without them, a name meets the credit or the inset")
        let shown = engine.baseMap.shownPlaceNames(plan.names, of: plan.view, avoiding: plan.avoiding)
        #expect(!shown.isEmpty && shown.allSatisfy { box in !reserved.contains { $0.overlaps(box) } })
    }

    /// A z16 frame with Bedford Av's station under the bottom inset: street names and station marks keep clear of the
    /// credit's plate and the inset as place names do. Without the reserved boxes a street name and the mark meet them,
    /// and the frame's pixels there show street-name ink and the mark's ring; with them neither.
    @Test func streetNamesAndStationMarksKeepClearOfTheCreditAndTheBottomInset() throws {
        let engine = try EngineFixture.engine.get()
        let viewport = try engine.scene.viewport.with(Camera(center: Coordinate(lat: 40.7236, lon: -73.9569), zoom: 16))
        let view = MapView(viewport: viewport)
        let reserved = engine.reservedBoxes(viewport)
        func meeting(_ boxes: [Rect]) -> [Rect] { boxes.filter { box in reserved.contains { $0.intersects(box) } } }
        let anywhere = engine.baseMap.markAndStreetNameBoxes(frame: view, reserved: [])
        #expect(!meeting(anywhere.streets).isEmpty && !meeting(anywhere.marks).isEmpty, "without them a street name and a mark meet them")
        let kept = engine.baseMap.markAndStreetNameBoxes(frame: view, reserved: reserved)
        #expect(!kept.streets.isEmpty && meeting(kept.streets).isEmpty)
        #expect(Set(kept.marks) == Set(anywhere.marks).subtracting(meeting(anywhere.marks)), "only the marks that meet them are left out")
        // The drawn frame: no pixel under the bottom inset has the street names' ink or the mark's ring (nothing else
        // there draws either colour); the base drawn without the reserved boxes has both there.
        let style = engine.baseMap.style
        let inks = [style.labels.color, try #require(style.places?.stationMark.ring)]
        let top = Int(((viewport.size.height - viewport.insets.bottom) * viewport.scale).rounded(.up))
        func inked(_ canvas: Canvas) -> Set<Color> {
            var found = Set<Color>()
            for y in top..<canvas.height { for x in 0..<canvas.width where inks.contains(canvas.pixel(x: x, y: y)) { found.insert(canvas.pixel(x: x, y: y)) } }
            return found
        }
        let frame = try engine.renderFrame(viewport, layers: [.base], now: engine.scene.capturedAt)
        #expect(inked(frame.canvas).isEmpty)
        let unreserved = try Canvas(width: view.width, height: view.height, background: style.water)
        engine.baseMap.draw(into: unreserved, view: view, frame: view)
        #expect(inked(unreserved) == Set(inks))
    }

    /// Two phones with one view but different bottom insets keep their names and marks clear of different boxes, so
    /// they share no layer: through one shared-layer cache, the second gets the bytes of its own frame drawn afresh.
    @Test func framesWithOtherInsetsShareNoLayer() throws {
        let engine = try EngineFixture.engine.get()
        let card = try engine.scene.viewport.with(Camera(center: Coordinate(lat: 40.7236, lon: -73.9569), zoom: 16))
        let bare = try Viewport(center: card.center, zoom: card.zoom, size: card.size, scale: card.scale,
                                insets: EdgeInsets(top: card.insets.top, left: 0, bottom: 0, right: 0))
        let (sharing, now) = (SharedLayers(budget: 1 << 30), engine.scene.capturedAt)
        _ = try engine.renderFrame(card, layers: [.base], now: now, sharing: sharing)
        let shared = try engine.renderFrame(bare, layers: [.base], now: now, sharing: sharing)
        #expect(try shared.png() == engine.renderFrame(bare, layers: [.base], now: now).png())
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
        #expect(([bedford.box] + bedford.alternatives.map(\.box)).allSatisfy { box in pins.contains { $0.overlaps(box) } })
        #expect(!shown.contains { names[$0.name].name == "Bedford Av" })
        #expect(shown.allSatisfy { placement in !pins.contains { $0.overlaps(names[placement.name].outline(placement.option).box) } })
    }
}
