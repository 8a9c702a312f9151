import Foundation
import GeoCore
import LiveMap
import Routing

/// The drives of the orders being delivered now, as their customers see them: each Dasher's fix (sent as any
/// location is) is matched after their earlier ones on the order they are driving, the remaining route and the
/// ETA follow, and the order turns "nearby" when the tracker says a quarter is left. The street network is built
/// from the start (`StreetNetwork`), never on a request's thread: fixes that come before it is ready wait for it
/// on the drives' own queue, and a map asked for meanwhile is refused with `StreetsNotReady`. Drives are kept in
/// memory: a restarted server plans them again at the next fix.
public final class LiveDrives: @unchecked Sendable {
    private struct Drive {
        let people: Set<PersonID>
        var tracker: DriveTracker
        var matcher: MapMatcher
        var search: RouteSearch
        /// The server time of the latest matched fix: what the customer sees is reckoned from it.
        var matchedAt: Date?
    }

    private let book: OrderBook
    private let network: StreetNetwork
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "snapmap-drives")
    private var drives: [OrderID: Drive] = [:]

    /// Drives of `book`'s orders on the streets of `network` (being built, or built).
    public init(book: OrderBook, network: StreetNetwork) {
        self.book = book
        self.network = network
    }

    /// Takes `fix` of `dasher` at server time `now` into the drive of each order they are driving, on the drives'
    /// own queue (fixes in the order they come, after the network is built; no caller waits), then hands
    /// `moved` each such order as it is now with what its customer sees. A fix with no road near it moves nobody.
    public func add(_ fix: LocationFix, of dasher: PersonID, at now: Date, moved: @escaping @Sendable ([(order: Order, view: CustomerView)]) -> Void) {
        queue.async {
            var answers: [(order: Order, view: CustomerView)] = []
            for stored in (try? self.book.driving(by: dasher)) ?? [] {
                guard let tracker = try? self.step(stored, fix, at: now) else { continue }
                var order = stored.order
                if order.state == .heading && tracker.isNearby, let near = try? self.book.apply(.nearby, to: order.id, at: now) {
                    order = near.order
                } else if let current = try? self.book.order(order.id)?.order {
                    // Another server tracking the same drive (from the bus) may have moved it since it was read: the
                    // customer is told the order as it stands, never a state it already left.
                    guard !current.state.isFinal else { continue }
                    order = current
                }
                answers.append((order, DeliveryReplay.view(order, tracker, at: now)))
            }
            if !answers.isEmpty { moved(answers) }
        }
    }

    /// What the customer of `order` sees (the Dasher's part only while `DasherRule` allows), as of the Dasher's
    /// latest matched fix: "Arrives h:mm" is reckoned from that fix's server time, not the asking's, so the same
    /// drive gives the same bytes whenever asked. Nil before a fix was matched.
    public func view(of order: Order) -> CustomerView? {
        guard let (tracker, at) = lock.withLock({ drives[order.id].flatMap { drive in drive.matchedAt.map { (drive.tracker, $0) } } }) else { return nil }
        return DeliveryReplay.view(order, tracker, at: at)
    }

    /// The tracking map the customer of `stored` sees now: the drive being tracked, or before the Dasher's first
    /// fix the drive as planned. Throws `StreetsNotReady` at once while the street network is being built, and
    /// what its build threw when it could not be; an order whose ends no street connects has a map without a route.
    public func map(of stored: StoredOrder) throws -> CustomerMap {
        guard let router = try network.ready() else { throw StreetsNotReady() }
        if let tracker = lock.withLock({ drives[stored.order.id]?.tracker }) { return CustomerMap(stored, planned: tracker.planned, tracker: tracker) }
        return CustomerMap(stored, planned: try? router.route(from: stored.from, to: stored.to), tracker: nil)
    }

    /// Starts building the street network, if it is not built or being built (an order was heard of).
    public func prepare() {
        network.start()
    }

    /// Forgets the drive of a delivered or cancelled order.
    public func end(_ id: OrderID) {
        lock.withLock { drives[id] = nil }
    }

    /// Forgets every drive `person` is the customer or the Dasher of (their account was deleted, and its orders
    /// with it).
    public func forget(_ person: PersonID) {
        lock.withLock { drives = drives.filter { !$0.value.people.contains(person) } }
    }

    private func step(_ stored: StoredOrder, _ fix: LocationFix, at now: Date) throws -> DriveTracker? {
        let router = try network.built()
        return lock.withLock {
            var drive: Drive
            if let kept = drives[stored.order.id] {
                drive = kept
            } else {
                var search = RouteSearch(nodeCount: router.graph.nodeCount)
                // An order whose store or door is off the streets has no drive to show: its Dasher's fixes move nobody.
                guard let from = try? router.position(of: stored.from, field: "from"), let to = try? router.position(of: stored.to, field: "to"),
                      let tracker = DriveTracker(router: router, from: from, to: to, search: &search) else { return nil }
                drive = Drive(people: [stored.order.customer, stored.order.dasher], tracker: tracker, matcher: MapMatcher(router: router), search: search)
            }
            let trace = TraceFix(point: WebMercator.projectUnchecked(lat: fix.coordinate.lat, lon: fix.coordinate.lon),
                                 time: fix.takenAt.timeIntervalSince1970, accuracy: fix.accuracyMeters)
            let moved = drive.tracker.add(trace, matcher: &drive.matcher, search: &drive.search)
            if moved { drive.matchedAt = now }
            drives[stored.order.id] = drive
            return moved ? drive.tracker : nil
        }
    }
}
