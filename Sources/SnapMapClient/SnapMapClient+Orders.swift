import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A delivery order as its customer or its Dasher reads it: the Dasher's matched position, the metres left and
/// "Arrives h:mm" come only to the customer, from pickup to drop-off.
public struct DeliveryOrder: Codable, Sendable, Equatable {
    public let id: String
    public let store: String
    /// confirming, preparing, heading, nearby, complete or cancelled.
    public let state: String
    public let items: [String]
    /// When the order entered each state it has been in, by state.
    public let entered: [String: Date]
    public let dasher: Coordinate?
    public let remainingMeters: Double?
    public let arrives: String?
}

/// `GET /v1/me/orders/{id}/layout.json`: the order's tracking map as its customer's phone draws it, the camera for
/// its own snapshot and every mark in points (the Dasher only from pickup to drop-off).
public struct TrackingLayout: Codable, Sendable, Equatable {
    /// `route` (the whole drive, 40 pt margins) or `lastStretch` (the last 250 m, 50 pt).
    public let framing: String
    public let state: String
    public let camera: Camera
    public let freeRect: ScreenRect
    public let margin: Double
    /// The red line: from the Dasher home, the planned drive before pickup, none once complete.
    public let line: [ScreenPoint]
    public let home: ScreenPoint
    public let store: ScreenPoint
    public let dasher: ScreenPoint?
}

extension SnapMapClient {
    /// An order of the signed-in person's, as customer or Dasher (`SnapMapError.notFound` for any other id).
    public func order(_ id: String) async throws -> DeliveryOrder {
        try decode(DeliveryOrder.self, try expectSuccess(try await send("GET", "/v1/me/orders/" + Self.segment(id))))
    }

    /// The order's tracking layout on a screen of `size` points (`WxH`) at `scale`, the sheet covering `sheet` of it
    /// (the server's defaults where nil), revalidated with the tag of the copy held; the customer's only.
    public func trackingLayout(_ id: String, size: String? = nil, scale: Double? = nil, sheet: Double? = nil) async throws -> Revalidated<TrackingLayout> {
        try await revalidated("/v1/me/orders/" + Self.segment(id) + "/layout.json", query: Self.trackingQuery(size, scale, sheet))
            .map { try decode(TrackingLayout.self, $0) }
    }

    /// The order's tracking frame as PNG (the snapshot with the line, the pins and the Dasher), revalidated likewise.
    public func trackingFrame(_ id: String, size: String? = nil, scale: Double? = nil, sheet: Double? = nil) async throws -> Revalidated<Data> {
        try await revalidated("/v1/me/orders/" + Self.segment(id) + "/frame.png", query: Self.trackingQuery(size, scale, sheet))
    }

    static func trackingQuery(_ size: String?, _ scale: Double?, _ sheet: Double?) -> [URLQueryItem] {
        [("size", size), ("scale", scale.map { "\($0)" }), ("sheet", sheet.map { "\($0)" })].compactMap { name, value in
            value.map { URLQueryItem(name: name, value: $0) }
        }
    }

    /// The Dasher picks the order up (it was preparing): answers the order as the Dasher reads it.
    public func pickUp(_ id: String) async throws -> DeliveryOrder {
        try decode(DeliveryOrder.self, try expectSuccess(try await send("POST", "/v1/me/orders/" + Self.segment(id) + "/pickup")))
    }

    /// The Dasher drops the order off (it was heading or nearby): answers the order, complete.
    public func dropOff(_ id: String) async throws -> DeliveryOrder {
        try decode(DeliveryOrder.self, try expectSuccess(try await send("POST", "/v1/me/orders/" + Self.segment(id) + "/dropoff")))
    }
}
