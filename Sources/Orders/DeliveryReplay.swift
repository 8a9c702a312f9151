import Foundation
import GeoCore
import LiveMap
import Routing

/// What an order's customer receives at one moment: the state, and while the Dasher drives (as `DasherRule`
/// allows) the Dasher's matched position, the metres left and "Arrives h:mm" by the server's clock.
public struct CustomerView: Sendable, Equatable, Codable {
    public let at: Date
    public let state: OrderState
    public let dasher: Coordinate?
    public let remainingMeters: Double?
    public let arrives: String?
}

/// One moment of a replayed order: what its customer receives, and their tracking map.
public struct ReplayMoment: Sendable, Equatable {
    public let view: CustomerView
    public let map: CustomerMap
}

/// A scripted order replayed through the same code a live order goes through (`Order`, `DasherRule`,
/// `DriveTracker`): placed at `start`, confirmed a minute later, picked up at six minutes, then a simulated Dasher
/// (seeded: a fix every 5 s, accuracy 10 m, 2% jumps) drives the fastest route to home; "nearby" when the tracker
/// says a quarter is left, dropped off 5 s after the last fix. The same inputs give the same views and maps.
public enum DeliveryReplay {
    /// "Arrives h:mm" is read on New York's clock, where the map is.
    public static let timeZone = TimeZone(identifier: "America/New_York")!

    /// The customer's views and maps of `order` from `start` to drop-off, the Dasher simulated with `seed`.
    public static func run(router: Router, order: Order, from store: Coordinate, to home: Coordinate, start: Date, seed: UInt64) throws -> [ReplayMoment] {
        var order = order
        var search = RouteSearch(nodeCount: router.graph.nodeCount)
        var matcher = MapMatcher(router: router)
        guard var tracker = DriveTracker(router: router, from: try router.position(of: store, field: "store"),
                                         to: try router.position(of: home, field: "home"), search: &search) else {
            throw BadField(field: "home", message: "cannot be reached by street from the store")
        }
        func moment(_ at: Date) -> ReplayMoment {
            ReplayMoment(view: view(order, tracker, at: at), map: CustomerMap(StoredOrder(order, from: store, to: home), planned: tracker.planned, tracker: tracker))
        }
        var moments = [moment(start)]
        try order.apply(.confirm, at: start.addingTimeInterval(60))
        moments.append(moment(start.addingTimeInterval(60)))
        let pickup = start.addingTimeInterval(360)
        try order.apply(.pickup, at: pickup)
        moments.append(moment(pickup))
        var random = SplitMix64(seed: seed)
        let drive = SimulatedDrive(route: tracker.planned, router: router, interval: 5, accuracy: 10, jumpChance: 0.02, random: &random)
        for fix in drive.fixes {
            let now = pickup.addingTimeInterval(fix.time)
            guard tracker.add(fix, matcher: &matcher, search: &search) else { continue }
            if order.state == .heading && tracker.isNearby { try order.apply(.nearby, at: now) }
            moments.append(moment(now))
        }
        let dropoff = pickup.addingTimeInterval((drive.fixes.last?.time ?? 0) + 5)
        try order.apply(.dropoff, at: dropoff)
        moments.append(moment(dropoff))
        return moments
    }

    /// The customer's view of `order` at `now`: the Dasher's part only as `DasherRule` allows.
    public static func view(_ order: Order, _ tracker: DriveTracker, at now: Date) -> CustomerView {
        guard DasherRule.seesDasher(order.customer, of: order) else {
            return CustomerView(at: now, state: order.state, dasher: nil, remainingMeters: nil, arrives: nil)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "h:mm"
        return CustomerView(at: now, state: order.state, dasher: WebMercator.unprojectUnchecked(tracker.position.point),
                            remainingMeters: (tracker.remaining.length * 10).rounded() / 10,
                            arrives: "Arrives " + formatter.string(from: now.addingTimeInterval(tracker.etaSeconds)))
    }
}
