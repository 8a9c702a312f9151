import GeoCore
import Routing

/// What an order's tracking map shows its customer, and nothing more: the store and the door (their own
/// order's ends), the planned drive, and only while `DasherRule` lets the customer see the Dasher, the Dasher's
/// matched position with the remaining route from it (shortening as they drive). The line drawn is the remaining
/// route while the Dasher shows, the planned drive before pickup, and none once the order is complete or cancelled.
public struct CustomerMap: Sendable, Equatable {
    public let state: OrderState
    public let store: Coordinate
    public let home: Coordinate
    /// The drive as planned from the store to the door (empty when no street connects them).
    public let planned: [Coordinate]
    /// The Dasher's matched position, while the customer may see it.
    public let dasher: Coordinate?
    /// From the Dasher to the door, while the Dasher shows; its ground length in metres.
    public let remaining: [Coordinate]?
    public let remainingMeters: Double?

    /// The map of `stored` at its current state: `planned` is the drive at pickup (nil when none), `tracker`
    /// the drive being tracked (nil before the Dasher's first fix).
    public init(_ stored: StoredOrder, planned: Route?, tracker: DriveTracker?) {
        let order = stored.order
        state = order.state
        store = stored.from
        home = stored.to
        self.planned = (tracker?.planned ?? planned)?.coordinates ?? []
        if let tracker, DasherRule.seesDasher(order.customer, of: order) {
            dasher = WebMercator.unprojectUnchecked(tracker.position.point)
            remaining = tracker.remaining.coordinates
            remainingMeters = tracker.remaining.length
        } else {
            (dasher, remaining, remainingMeters) = (nil, nil, nil)
        }
    }

    /// A map as given: the Dasher, when shown, with the remaining route from them and its length in metres.
    public init(state: OrderState, store: Coordinate, home: Coordinate, planned: [Coordinate], dasher: (at: Coordinate, remaining: [Coordinate], meters: Double)?) {
        (self.state, self.store, self.home, self.planned) = (state, store, home, planned)
        (self.dasher, remaining, remainingMeters) = (dasher?.at, dasher?.remaining, dasher?.meters)
    }

    /// The line the map draws: the remaining route while the Dasher shows, else the planned drive until the
    /// order is complete or cancelled, then none.
    public var line: [Coordinate] {
        if let remaining { return remaining }
        return state.isFinal ? [] : planned
    }
}
