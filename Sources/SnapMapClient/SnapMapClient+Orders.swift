import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A delivery order as its customer or its Dasher reads it: the Dasher's matched position, the metres left and
/// "Arrives h:mm" come only to the customer, from pickup to drop-off.
public struct DeliveryOrder: Codable, Sendable, Equatable {
    /// A point on the map.
    public struct Point: Codable, Sendable, Equatable {
        public let lat: Double
        public let lon: Double
    }

    public let id: String
    public let store: String
    /// confirming, preparing, heading, nearby, complete or cancelled.
    public let state: String
    public let items: [String]
    /// When the order entered each state it has been in, by state.
    public let entered: [String: Date]
    public let dasher: Point?
    public let remainingMeters: Double?
    public let arrives: String?
}

extension SnapMapClient {
    /// An order of the signed-in person's, as customer or Dasher (`SnapMapError.notFound` for any other id).
    public func order(_ id: String) async throws -> DeliveryOrder {
        try decode(DeliveryOrder.self, try expectSuccess(try await send("GET", "/v1/me/orders/" + Self.segment(id))))
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
