@testable import BaseMap
import DeliveryTracking
import Foundation
import GeoCore
import Orders
import PinDrawing
import Raster
import Testing

/// A live order's tracking map: the framing the delivery app asks for (the whole drive with 40 pt margins, the last
/// 250 m with 50 pt), every mark where Web Mercator puts it (computed here directly), and the frame drawn with the
/// line, the pins and the Dasher's red circle where the layout says.
@Suite("Live order tracking layouts and frames")
struct TrackingLayoutTests {
    static let home = try! Coordinate(lat: 40.67015, lon: -73.98549)

    /// A random drive of `steps` legs of 40–160 m ending at `home`, from a seeded walk in Brooklyn.
    static func drive(seed: UInt64, steps: Int, home: Coordinate = home) -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        var points = [home]
        for _ in 0..<steps {
            let last = points[points.count - 1]
            let (bearing, metres) = (random.unit() * 2 * .pi, 40 + random.unit() * 120)
            points.append(try! Coordinate(lat: last.lat + metres * cos(bearing) / 111_132, lon: last.lon + metres * sin(bearing) / (111_320 * cos(last.lat * .pi / 180))))
        }
        return points.reversed()
    }

    /// The map of `drive` with the Dasher `along` metres into it (nil: before pickup).
    static func map(_ drive: [Coordinate], along: Double?) throws -> CustomerMap {
        let home = drive[drive.count - 1]
        guard let along else { return CustomerMap(state: .preparing, store: drive[0], home: home, planned: drive, dasher: nil) }
        let polyline = try Polyline(drive)
        let remaining = try polyline.remainder(fromDistance: along)
        return CustomerMap(state: .heading, store: drive[0], home: home, planned: drive, dasher: (remaining[0], remaining, polyline.length - along))
    }

    /// Web Mercator in points at `zoom`, directly: x east, y down.
    static func world(_ c: Coordinate, zoom: Double) -> (x: Double, y: Double) {
        let size = 256 * pow(2, zoom)
        return ((c.lon + 180) / 360 * size, (1 - log(tan(.pi / 4 + c.lat * .pi / 360)) / .pi) / 2 * size)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theDriveIsFramedAboveTheSheetAndTheLastStretchCloser(seed: UInt64) throws {
        let drive = Self.drive(seed: seed, steps: 12)
        let length = try Polyline(drive).length
        for along in [nil, length * 0.3, length - 200, length - 30] as [Double?] {
            let map = try Self.map(drive, along: along)
            let layout = try TrackingLayout(map, size: ScreenSize(width: 393, height: 852), scale: 3, sheet: 0.52)
            let lastStretch = (map.remainingMeters ?? .infinity) <= 250
            #expect(layout.framing == (lastStretch ? .lastStretch : .route) && layout.margin == (lastStretch ? 50 : 40))
            #expect(layout.freeRect.minY == RouteFrameOptions.statusBar && abs(layout.freeRect.maxY - 852 * 0.48) <= 0.5)
            let room = layout.freeRect.inset(by: EdgeInsets(all: layout.margin))
            // What is framed: the whole drive and the pins, or the last 250 m of the plan, the Dasher's way home and home.
            let polyline = try Polyline(drive)
            let framed = lastStretch ? [map.home] + (map.remaining ?? []) + (try polyline.remainder(fromDistance: polyline.length - 250))
                : [map.store, map.home] + drive
            // Every mark relative to home, by the direct formula.
            let origin = Self.world(map.home, zoom: layout.camera.zoom)
            func expected(_ c: Coordinate) -> ScreenPoint {
                let w = Self.world(c, zoom: layout.camera.zoom)
                return ScreenPoint(x: layout.home.x + w.x - origin.x, y: layout.home.y + w.y - origin.y)
            }
            let points = framed.map(expected)
            for point in points {
                #expect(point.x >= room.minX - 1e-6 && point.x <= room.maxX + 1e-6 && point.y >= room.minY - 1e-6 && point.y <= room.maxY + 1e-6,
                        "\(point) outside \(room)")
            }
            let (xs, ys) = (points.map(\.x), points.map(\.y))
            let touches = (abs(xs.min()! - room.minX) < 1e-6 && abs(xs.max()! - room.maxX) < 1e-6) || (abs(ys.min()! - room.minY) < 1e-6 && abs(ys.max()! - room.maxY) < 1e-6)
            #expect(touches || layout.camera.zoom == RouteFrameOptions.maxZoom, "the largest zoom that fits")
            let line = map.remaining ?? drive
            #expect(layout.line.count == line.count)
            for (drawn, coordinate) in zip(layout.line + [layout.store], line + [map.store]) {
                let want = expected(coordinate)
                #expect(abs(drawn.x - want.x) < 1e-6 && abs(drawn.y - want.y) < 1e-6)
            }
            #expect((layout.dasher == nil) == (along == nil) && layout.dasher == layout.line.first.flatMap { along == nil ? nil : $0 })
        }
    }

    @Test func aFinishedOrderDrawsNoLineAndNoDasher() throws {
        let drive = Self.drive(seed: 9, steps: 8)
        let done = CustomerMap(state: .complete, store: drive[0], home: Self.home, planned: drive, dasher: nil)
        let layout = try TrackingLayout(done, size: ScreenSize(width: 393, height: 852), scale: 3, sheet: 0.52)
        #expect(layout.line.isEmpty && layout.dasher == nil && layout.framing == .route)
    }

    @Test func aBadOverlayStyleNamesItsField() throws {
        let original = try JSONSerialization.jsonObject(with: Data(contentsOf: EngineFixture.engine.get().paths.dataDirectory
            .appendingPathComponent(TrackingOverlayStyle.file))) as? [String: [String: Any]] ?? [:]
        for (section, key, value) in [("dasher", "haloOpacity", 2.0), ("pin", "height", 20.0), ("line", "width", -1.0)] as [(String, String, Any)]
            + [("pin", "color", "black"), ("line", "color", 5)] {
            var style = original
            style[section]?[key] = value
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("overlay-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("styles"), withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try JSONSerialization.data(withJSONObject: style).write(to: directory.appendingPathComponent(TrackingOverlayStyle.file))
            #expect { _ = try TrackingOverlayStyle.load(dataDirectory: directory) } throws: { error in
                "\(error)".contains("\(section).\(key)") && "\(error)".contains(TrackingOverlayStyle.file)
            }
        }
    }

    @Test func theFrameDrawsTheLineThePinsAndTheDasherWhereTheLayoutSays() throws {
        let tracker = DeliveryTracker(engine: try EngineFixture.engine.get())
        let style = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: EngineFixture.engine.get().paths.dataDirectory
            .appendingPathComponent(TrackingOverlayStyle.file))) as? [String: [String: Any]])
        let (red, ink) = (try Color(hex: try #require(style["dasher"]?["color"] as? String)), try Color(hex: try #require(style["pin"]?["color"] as? String)))
        let (radius, pinRadius, pinHeight) = (try #require(style["dasher"]?["diameter"] as? Double) / 2, try #require(style["pin"]?["radius"] as? Double),
                                              try #require(style["pin"]?["height"] as? Double))
        let drive = Self.drive(seed: 4, steps: 10)
        let length = try Polyline(drive).length
        let moving = try TrackingLayout(Self.map(drive, along: length * 0.4), size: ScreenSize(width: 393, height: 852), scale: 2, sheet: 0.52)
        let waiting = try TrackingLayout(Self.map(drive, along: nil), size: ScreenSize(width: 393, height: 852), scale: 2, sheet: 0.52)
        let frame = try tracker.renderTracking(moving)
        let plain = try tracker.renderTracking(waiting)
        func pixel(_ canvas: Canvas, _ x: Double, _ y: Double) -> Color { canvas.pixel(x: Int(x * 2), y: Int(y * 2)) }
        let dasher = try #require(moving.dasher)
        #expect(pixel(frame, dasher.x, dasher.y - 0.85 * radius) == red, "the red disc at the matched position")
        #expect(pixel(plain, dasher.x, dasher.y - 0.85 * radius) != red || waiting.line.contains { abs($0.x - dasher.x) < 8 && abs($0.y - dasher.y) < 8 },
                "no red circle before pickup")
        for pin in [waiting.home, waiting.store] {
            #expect(pixel(plain, pin.x, pin.y - (pinHeight - pinRadius) + 0.85 * pinRadius) == ink, "a black teardrop over \(pin)")
        }
        // The line: the middle of its longest segment clear of the marks is drawn red.
        let clear = zip(moving.line, moving.line.dropFirst()).map { ScreenPoint(x: ($0.x + $1.x) / 2, y: ($0.y + $1.y) / 2) }
            .filter { mid in [moving.home, moving.store, dasher].allSatisfy { hypot(mid.x - $0.x, mid.y - $0.y + 20) > 40 } }
        let middle = try #require(clear.first)
        let drawn = pixel(frame, middle.x, middle.y)
        #expect(abs(Int(drawn.r) - Int(red.r)) < 30 && drawn.g < 90 && drawn.b < 90, "the red line at \(middle): \(drawn)")
        #expect(try PNGCodec.encode(tracker.renderTracking(moving)) == PNGCodec.encode(frame), "the same layout gives the same bytes")
    }

    /// The tracking frame's names keep clear of the sheet (the bottom inset) and of a credit when its style draws one, as
    /// a friends' frame's do: over seeded drives in Williamsburg (where the base map has streets) framed at street-name
    /// zoom, without the reserved boxes a street name meets the sheet; with them none does, and the drawn frame has no
    /// street-name ink under the sheet.
    @Test func streetNamesKeepClearOfTheSheet() throws {
        let tracker = DeliveryTracker(engine: try EngineFixture.engine.get())
        let map = try tracker.trackingMap
        var (met, named) = (0, 0)
        var example: TrackingLayout?
        for seed in 1...6 as ClosedRange<UInt64> {
            let drive = Self.drive(seed: seed, steps: 12, home: try Coordinate(lat: 40.7145, lon: -73.9566))
            let layout = try TrackingLayout(Self.map(drive, along: try Polyline(drive).length - 120), size: ScreenSize(width: 393, height: 852),
                                            scale: 2, sheet: 0.52)
            let viewport = try layout.viewport()
            let view = MapView(viewport: viewport)
            let reserved = tracker.engine.reservedBoxes(viewport, map: map)
            let sheet = ScreenRect(x: 0, y: 852 - layout.insets.bottom, width: 393, height: layout.insets.bottom).pixels(scale: 2)
            #expect(reserved.contains(sheet), "the sheet is reserved")
            func meeting(_ boxes: [Rect]) -> [Rect] { boxes.filter { box in reserved.contains { $0.intersects(box) } } }
            if !meeting(map.markAndStreetNameBoxes(frame: view, reserved: []).streets).isEmpty {
                met += 1
                example = example ?? layout
            }
            let kept = map.markAndStreetNameBoxes(frame: view, reserved: reserved).streets
            named += kept.isEmpty ? 0 : 1
            #expect(meeting(kept).isEmpty, "seed \(seed): a street name under the sheet")
        }
        #expect(met > 0 && named > 0, "without the reserved boxes a name meets the sheet (\(met) of 6); with them names still show (\(named))")
        // The drawn frame: no pixel under the sheet has the street names' ink (the overlay's marks lie above it, a
        // margin in); the base drawn without the reserved boxes has it there.
        let layout = try #require(example)
        let view = MapView(viewport: try layout.viewport())
        let top = Int(((852 - layout.insets.bottom) * 2).rounded(.up))
        func inked(_ canvas: Canvas) -> Bool {
            (top..<canvas.height).contains { y in (0..<canvas.width).contains { canvas.pixel(x: $0, y: y) == map.style.labels.color } }
        }
        #expect(!inked(try tracker.renderTracking(layout)))
        #expect(inked(try map.render(view, asFrame: true)))
    }
}
