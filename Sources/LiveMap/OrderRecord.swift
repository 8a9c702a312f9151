import Foundation

/// A delivery order as the live store keeps it: plain values that the `Orders` module reads into its `Order`
/// (which knows the states and their rules; the store only keeps what it was given). The customer and the Dasher
/// are people of the store, so deleting either deletes the order.
public struct OrderRecord: Sendable, Equatable {
    public let id: String
    public let storeName: String
    public let customer: PersonID
    public let dasher: PersonID
    public let items: [String]
    public let state: String
    /// When the order entered each state it has been in, by state name.
    public let entered: [String: Date]

    /// A record of validated values (the `Orders` module checks them before it writes).
    public init(id: String, storeName: String, customer: PersonID, dasher: PersonID, items: [String], state: String, entered: [String: Date]) {
        self.id = id
        self.storeName = storeName
        self.customer = customer
        self.dasher = dasher
        self.items = items
        self.state = state
        self.entered = entered
    }
}
