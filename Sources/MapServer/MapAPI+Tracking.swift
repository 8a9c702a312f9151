import DeliveryTracking
import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapRequest
import Orders

/// `/v1/me/orders/{id}/layout.json` and `/frame.png`: a live order's tracking map, for its customer only. The
/// layout is the camera and every mark in points (so a phone can draw on its own snapshot); the frame is the
/// snapshot with the marks drawn as the delivery app draws them. Both are made from `CustomerMap`, so the Dasher
/// shows only as `DasherRule` allows; the Dasher and everyone else get the answer an unknown order gets.
extension MapAPI {
    static let trackingAnswers: Set<String> = ["layout.json", "frame.png"]

    func tracking(_ me: PersonID, _ id: String, _ answer: String, _ request: HTTPRequest) throws -> HTTPResponse {
        guard let orderID = try? OrderID(id), let stored = try orderBook?.order(orderID), DasherRule.tracks(me, stored.order),
              let drives else { return Self.noOrder }
        let layout = try RequestParameters(request.query).trackingLayout(drives.map(of: stored))
        let body = try CompactJSONEncoder.encode(layout)
        guard answer == "frame.png" else {
            return conditional(request, tag: EntityTag.of(bytes: body), cacheControl: "private, no-cache") {
                HTTPResponse(status: 200, contentType: "application/json", body: body)
            }
        }
        // The frame is drawn from the layout alone, over the tracking map's data and style.
        let tag = EntityTag.of([routeData, "tracking-frame", String(decoding: body, as: UTF8.self)])
        let (tracker, viewport) = (self.tracker, try layout.viewport())
        try engine.checkFrame(viewport)
        return conditional(request, tag: tag, cacheControl: "private, no-cache") {
            renders.answer(for: me.rawValue, bytes: MapEngine.renderBytes(pixels: viewport.pixelWidth * viewport.pixelHeight)) { _ in
                try Self.png(tracker.renderTracking(layout))
            }
        }
    }
}
