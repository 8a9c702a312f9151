import Foundation
import GeoCore

/// A delivery order as the live store keeps it: plain values that the `Orders` module reads into its `Order`
/// (which knows the states and their rules; the store only keeps what it was given). The customer and the Dasher
/// are people of the store, so deleting either deletes the order.
public struct OrderRecord: Sendable, Equatable {
    /// The order's id (the `Orders` module's `OrderID`).
    public let id: String
    /// The name of the store the order comes from.
    public let storeName: String
    /// The person the order is for.
    public let customer: PersonID
    /// The person who delivers it.
    public let dasher: PersonID
    /// The items, as opaque text.
    public let items: [String]
    /// Where the drive starts (the store) and ends (the customer's door).
    public let from: Coordinate, to: Coordinate
    /// The state's name (the `Orders` module's `OrderState`).
    public let state: String
    /// When the order entered each state it has been in, by state name.
    public let entered: [String: Date]

    /// A record of validated values (the `Orders` module checks them before it writes).
    public init(id: String, storeName: String, customer: PersonID, dasher: PersonID, items: [String], from: Coordinate, to: Coordinate,
                state: String, entered: [String: Date]) {
        self.id = id
        self.storeName = storeName
        self.customer = customer
        self.dasher = dasher
        self.items = items
        self.from = from
        self.to = to
        self.state = state
        self.entered = entered
    }
}
