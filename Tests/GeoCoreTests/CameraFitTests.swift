import Testing
@testable import GeoCore

@Suite("Fitting a box into a viewport")
struct CameraFitTests {
    private let insets = EdgeInsets(top: 59, left: 0, bottom: 300, right: 0)
    private let padding = EdgeInsets(all: 40)

    private func viewport() throws -> Viewport {
        try Viewport(center: Coordinate(lat: 40.7, lon: -73.9), zoom: 12, size: ScreenSize(width: 393, height: 852),
                     scale: 3, insets: insets)
    }

    /// Projects the box through the fitted viewport and returns its screen rectangle.
    private func screenRect(of box: GeoBoundingBox, in viewport: Viewport) throws -> ScreenRect {
        let topLeft = try viewport.point(for: Coordinate(lat: box.north, lon: box.west))
        let bottomRight = try viewport.point(for: Coordinate(lat: box.south, lon: box.east))
        return ScreenRect(x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y)
    }

    @Test(arguments: [
        (-73.972, 40.700, -73.930, 40.728),
        (-74.035, 40.630, -73.975, 40.680),
        (-73.99, 40.70, -73.98, 40.75),
    ])
    func boxLandsInFreeAreaTouchingPaddingOnTighterAxis(box: (Double, Double, Double, Double)) throws {
        let view = try viewport()
        let bounds = try GeoBoundingBox(west: box.0, south: box.1, east: box.2, north: box.3)
        let fitted = try view.with(view.camera(fitting: bounds, padding: padding, maxZoom: 20))
        let rect = try screenRect(of: bounds, in: fitted)
        let room = view.freeRect.inset(by: padding)
        let tolerance = 1e-6
        #expect(rect.minX >= room.minX - tolerance && rect.maxX <= room.maxX + tolerance)
        #expect(rect.minY >= room.minY - tolerance && rect.maxY <= room.maxY + tolerance)
        let touchesHorizontally = abs(rect.minX - room.minX) < tolerance && abs(rect.maxX - room.maxX) < tolerance
        let touchesVertically = abs(rect.minY - room.minY) < tolerance && abs(rect.maxY - room.maxY) < tolerance
        #expect(touchesHorizontally != touchesVertically, "exactly the tighter axis touches the padding")
        #expect(abs(rect.center.x - room.center.x) < tolerance && abs(rect.center.y - room.center.y) < tolerance)
    }

    @Test func onePointIsCenteredAtMaxZoom() throws {
        let view = try viewport()
        let friend = try Coordinate(lat: 40.7142, lon: -73.9681)
        let camera = try view.camera(fitting: [friend], padding: padding, maxZoom: 17)
        #expect(camera.zoom == 17)
        let point = try view.with(camera).point(for: friend)
        #expect(abs(point.x - view.freeRect.center.x) < 1e-6 && abs(point.y - view.freeRect.center.y) < 1e-6)
    }

    @Test func capsAtMaxZoom() throws {
        let view = try viewport()
        let tiny = try GeoBoundingBox(west: -73.9601, south: 40.7150, east: -73.9600, north: 40.7151)
        #expect(try view.camera(fitting: tiny, maxZoom: 16.5).zoom == 16.5)
    }

    @Test func refusesPaddingLargerThanTheViewport() throws {
        let view = try viewport()
        let box = try GeoBoundingBox(west: -73.97, south: 40.70, east: -73.93, north: 40.72)
        #expect(throws: BadField.self) { try view.camera(fitting: box, padding: EdgeInsets(all: 200), maxZoom: 18) }
        #expect(throws: BadField.self) { try view.camera(fitting: box, padding: EdgeInsets(all: -1), maxZoom: 18) }
        #expect(throws: BadField.self) { try view.camera(fitting: [Coordinate](), maxZoom: 18) }
    }
}
