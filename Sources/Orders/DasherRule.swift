import LiveMap

/// Who sees a Dasher, in one place: viewer V sees the Dasher of order O exactly when V is O's customer, V is
/// not O's Dasher, and O is between pickup and drop-off (heading or nearby). What V then sees is the Dasher's
/// matched position on the route and what follows from it (the remaining route, the ETA), never a raw fix; an
/// order never puts its Dasher on anyone's friends' map. Everyone else learns nothing of the Dasher's position.
public enum DasherRule {
    /// Whether `viewer` sees the Dasher of `order` now (its current state).
    public static func seesDasher(_ viewer: PersonID, of order: Order) -> Bool {
        viewer == order.customer && viewer != order.dasher && order.state.isDriving
    }

    /// Whether `viewer` gets the order's tracking map (its customer only; the Dasher has their own navigation).
    public static func tracks(_ viewer: PersonID, _ order: Order) -> Bool {
        viewer == order.customer
    }

    /// Whether `viewer` may read the order at all (its customer or its Dasher); anyone else gets the answer an
    /// unknown order gets.
    public static func mayRead(_ viewer: PersonID, _ order: Order) -> Bool {
        viewer == order.customer || viewer == order.dasher
    }
}
