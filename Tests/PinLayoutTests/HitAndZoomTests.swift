import Foundation
import GeoCore
import Testing
@testable import PinLayout

@Suite("Hit testing, selection camera and fly-to path")
struct HitAndZoomTests {
    private let viewport = Fixture.viewport(40.7150, -73.9560, zoom: 16)

    private func subject(at point: ScreenPoint, _ id: String, streak: Int = 0) -> PinSubject {
        let c = WebMercator.unprojectUnchecked(viewport.mercator(at: point))
        return Fixture.subject(id, c.lat, c.lon, streak: streak, best: streak > 0)
    }

    @Test func tapsHitTheRightTarget() throws {
        let layout = Fixture.engine.layout(subjects: [subject(at: ScreenPoint(x: 200, y: 400), "solo")], viewport: viewport, now: Fixture.now)
        let tester = PinHitTester(layout: layout, style: Fixture.engine.style)
        let avatar = try #require(layout.pin("solo")?.avatarRect)
        #expect(tester.hit(avatar.center) == HitResult(kind: .pin, id: "solo", members: nil))
        #expect(tester.hit(ScreenPoint(x: avatar.center.x + 23.9, y: avatar.center.y - 23.9)).id == "solo", "the edge of the touch target")
        #expect(tester.hit(ScreenPoint(x: avatar.center.x - 24.5, y: avatar.center.y)) == .none, "just outside it")
        #expect(tester.hit(ScreenPoint(x: 20, y: 150)) == .none, "empty map")
        let label = try #require(layout.pin("solo")?.labelRect)
        #expect(tester.hit(label.center) == HitResult(kind: .label, id: "solo", members: nil))
    }

    @Test func smallAvatarsGetA44PointTargetAndTheTopmostWins() {
        let style = PinStyle(avatarSize: 30)
        let engine = PinLayoutEngine(style: style, measurer: FixedWidthMeasurer())
        let subjects = [subject(at: ScreenPoint(x: 200, y: 400), "low"), subject(at: ScreenPoint(x: 238, y: 400), "high", streak: 99)]
        let layout = engine.layout(subjects: subjects, viewport: viewport, now: Fixture.now)
        let tester = PinHitTester(layout: layout, style: style)
        #expect(tester.hit(ScreenPoint(x: 200 - 21.5, y: 400)).id == "low", "44 pt around a 30 pt avatar")
        #expect(tester.hit(ScreenPoint(x: 219, y: 400)).id == "high", "both targets cover x = 219; the higher z-index wins")
    }

    @Test func groupTapsReturnTheMembers() {
        let subjects = [subject(at: ScreenPoint(x: 200, y: 400), "maya", streak: 100), subject(at: ScreenPoint(x: 205, y: 404), "noah")]
        let layout = Fixture.engine.layout(subjects: subjects, viewport: viewport, now: Fixture.now)
        let hit = PinHitTester(layout: layout, style: Fixture.engine.style).hit(ScreenPoint(x: 202, y: 402))
        #expect(hit == HitResult(kind: .group, id: "group-maya", members: ["maya", "noah"]))
    }

    @Test(arguments: [12.0, 15.0, 17.5])
    func selectedFriendLandsInTheMiddleOfTheFreeArea(startZoom: Double) throws {
        let start = Fixture.viewport(40.7100, -73.9600, zoom: startZoom)
        let friend = try Coordinate(lat: 40.7142, lon: -73.9681)
        let camera = SelectionCamera(selectionZoom: 16.5, maxZoom: 18)
        let answer = try camera.zoom(toFriend: "jordan", at: friend, from: start, cardHeight: 300)
        #expect(answer.camera.zoom == max(16.5, startZoom), "zoom in to 16.5, never out")
        #expect(answer.edgePadding.bottom == 300 && answer.edgePadding.top == 59)
        #expect(abs(answer.screenPoint.x - answer.freeCenter.x) <= 0.5 && abs(answer.screenPoint.y - answer.freeCenter.y) <= 0.5)
        #expect(abs(answer.freeCenter.y - (59 + (852 - 59 - 300) / 2)) < 1e-9)
        let after = try start.with(answer.camera)
        let point = try after.point(for: friend)
        #expect(abs(point.y - answer.freeCenter.y) <= 0.5)
        #expect(answer.visibleBounds.west < friend.lon && friend.lon < answer.visibleBounds.east)
    }

    @Test(arguments: [15, 17, 19, nil] as [Int?])
    func groupZoomsToWhereItSplitsCentredOnItsMembers(split: Int?) throws {
        let members = [try Coordinate(lat: 40.7204, lon: -73.9515), try Coordinate(lat: 40.7206, lon: -73.9512)]
        let answer = try SelectionCamera(selectionZoom: 16.5, maxZoom: 18)
            .zoom(toGroup: "group-maya", members: members, splitZoom: split, from: Fixture.viewport(40.71, -73.96, zoom: 14.5), cardHeight: 300)
        #expect(answer.camera.zoom == min(Double(split ?? 18), 18), "the split zoom, never past the maximum")
        let box = try #require(GeoBoundingBox(enclosing: members))
        let centre = WebMercator.unprojectUnchecked(try box.mercatorRect().center)
        let after = try Fixture.viewport(40.71, -73.96, zoom: 14.5).with(insets: answer.edgePadding).with(answer.camera)
        let point = try after.point(for: centre)
        #expect(abs(point.x - answer.freeCenter.x) <= 0.5 && abs(point.y - answer.freeCenter.y) <= 0.5)
    }

    @Test func flyToPathStartsAndEndsAtTheCamerasAndNeverGoesBack() throws {
        let start = Camera(center: try Coordinate(lat: 40.7160, lon: -73.9597), zoom: 14.5)
        let end = Camera(center: try Coordinate(lat: 40.7120, lon: -73.9690), zoom: 16.5)
        let (duration, frames) = FlyToPath.frames(from: start, to: end, viewportSize: ScreenSize(width: 393, height: 852))
        #expect(duration > 0.3 && duration < FlyToPath.maxDuration)
        #expect(frames.first?.center == start.center && abs((frames.first?.zoom ?? 0) - start.zoom) < 1e-9)
        #expect(frames.last?.center == end.center && frames.last?.zoom == end.zoom && frames.last?.time == duration)
        let startPoint = try WebMercator.project(start.center)
        var previous = -1.0
        for (index, frame) in frames.enumerated() {
            if index > 0 { #expect(abs(frame.time - frames[index - 1].time - 1 / 60) < 1e-9 || index == frames.count - 1) }
            let p = try WebMercator.project(frame.center)
            let travelled = hypot(p.x - startPoint.x, p.y - startPoint.y)
            #expect(travelled >= previous - 1e-6, "frame \(index) moves backwards")
            previous = travelled
        }
        let far = Camera(center: try Coordinate(lat: 40.6300, lon: -74.0300), zoom: 16)
        let long = FlyToPath.frames(from: Camera(center: start.center, zoom: 16), to: far, viewportSize: ScreenSize(width: 393, height: 852)).frames
        #expect(long.map(\.zoom).min()! < far.zoom - 2, "12 km is dozens of screens at zoom 16: van Wijk–Nuij zooms out to travel, then back in")
    }
}

@Suite("Taps far away")
struct FarTapTests {
    @Test(arguments: [(1e308, 1e308), (-1e308, 5.0), (3e20, 3e20), (0.0, 1e300), (-.infinity, 0.0), (.nan, 1.0)])
    func hitNothingAndNeverTrap(x: Double, y: Double) {
        let viewport = Fixture.viewport(40.7150, -73.9560, zoom: 15)
        let layout = Fixture.engine.layout(subjects: [Fixture.subject("solo", 40.7150, -73.9560)], viewport: viewport, now: Fixture.now)
        #expect(PinHitTester(layout: layout, style: PinStyle()).hit(ScreenPoint(x: x, y: y)) == .none)
    }
}

@Suite("Styles that would trap")
struct DangerousStyleTests {
    @Test func aZeroThresholdDoesNotTrap() {
        let viewport = Fixture.viewport(40.7150, -73.9560, zoom: 15)
        let engine = PinLayoutEngine(style: PinStyle(groupOverlap: 1), measurer: FixedWidthMeasurer())
        let subjects = [Fixture.subject("a", 40.7150, -73.9560), Fixture.subject("b", 40.7150, -73.9560)]
        let layout = engine.layout(subjects: subjects, viewport: viewport, now: Fixture.now)
        // It used to trap dividing by a zero threshold; now both friends are drawn, each alone or in a group, at finite places.
        let shown = layout.pins.filter { $0.visible && $0.groupId == nil }.map(\.id) + layout.groups.filter(\.visible).flatMap(\.members)
        #expect(shown.sorted() == ["a", "b"], "\(layout.pins.map { ($0.id, $0.visible, $0.groupId ?? "-") })")
        let boxes = layout.pins.compactMap(\.avatarRect) + layout.groups.compactMap(\.avatarRect)
        #expect(!boxes.isEmpty && boxes.allSatisfy { [$0.x, $0.y, $0.width, $0.height].allSatisfy(\.isFinite) })
    }
}
