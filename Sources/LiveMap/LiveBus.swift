import Foundation

/// What one replica tells the others: a change that can alter what someone sees, or a public Snap.
public enum LiveBusMessage: Hashable, Sendable {
    case change(LiveChange)
    /// A person's fix was kept: a `.person` change that carries the fix, so a view applies it without reading the store.
    case fix(PersonID, LocationFix)
    case snap(PublicSnap)
    /// An order was placed or moved: its customer's streams are told of it as it now is.
    case order(OrderNotice)
    /// Messages may have been lost (a reconnect, a log pruned past a listener): re-evaluate everything.
    case resync
}

/// Which order changed, and whose streams hear of it (the order itself is read back from the store).
public struct OrderNotice: Hashable, Sendable {
    public let order: String
    public let customer: PersonID

    /// The notice that `order` of `customer` changed (made by the stores of other modules: Redis Cluster's).
    public init(order: String, customer: PersonID) {
        self.order = order
        self.customer = customer
    }
}

/// Carries changes between snapmap replicas that share a store, so that a move received by one reaches the
/// event streams open on another. A bus never delivers a replica's own messages back to it.
public protocol LiveBus: AnyObject, Sendable {
    func publish(_ message: LiveBusMessage)
    /// Calls `handler` with every message another replica publishes.
    func listen(_ handler: @escaping @Sendable (LiveBusMessage) -> Void)
}

extension LiveMapService {
    /// Publishes this replica's changes on `bus` and delivers the other replicas' to this one's observers (after the
    /// store, when it is a `LiveView`, has applied them).
    public func attach(_ bus: any LiveBus) {
        busHolder.set(bus)
        let view = store as? LiveView
        bus.listen { [observers, snapObservers, orderObservers, fixObservers, resyncObservers] message in
            view?.hear(message)
            switch message {
            case .change(let change): observers.send(change)
            case .fix(let id, let fix):
                observers.send(.person(id))
                fixObservers.send((id, fix))
            case .snap(let snap): snapObservers.send(snap)
            case .order(let notice): orderObservers.send(notice)
            case .resync: resyncObservers.send(())
            }
        }
        view?.follow(bus)
    }
}

extension LiveMapService {
    /// Calls `observer` with each order another process placed or moved (its own orders it tells itself).
    public func observeOrders(_ observer: @escaping @Sendable (OrderNotice) -> Void) {
        orderObservers.add(observer)
    }

    /// Calls `observer` with each fix another process kept (its own fixes it tells itself).
    public func observeFixes(_ observer: @escaping @Sendable (PersonID, LocationFix) -> Void) {
        fixObservers.add { observer($0.0, $0.1) }
    }

    /// Calls `observer` when the bus may have lost messages, so that what was derived from them is re-read.
    public func observeResync(_ observer: @escaping @Sendable () -> Void) {
        resyncObservers.add { _ in observer() }
    }

    /// Why changes made elsewhere may reach this replica late: its bus (one that can tell) has not heard everything
    /// announced more than `LiveView.stalenessBound` ago. Nil when it has, or when no such bus is attached.
    public var busLag: String? { busHolder.lag(now: DispatchTime.now().uptimeNanoseconds) }

    /// Why the map's reads go to the store although an in-memory view is kept: it is loading (at start, or again
    /// after a resync) or not current for another reason. Nil when the view answers, or there is none.
    public var viewLag: String? {
        guard let view = store as? LiveView, !view.isCurrent else { return nil }
        return "the in-memory view is loading or not current: the store answers the map's reads (correct, slower)"
    }
}

/// The bus a service publishes on, once attached.
final class BusHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var bus: (any LiveBus)?

    func set(_ bus: any LiveBus) {
        lock.lock()
        self.bus = bus
        lock.unlock()
    }

    func lag(now: UInt64) -> String? {
        guard let liveness = lock.withLock({ bus as? BusLiveness }) else { return nil }
        let effect = "changes made elsewhere reach this replica's event streams late (its view, if any, is bypassed: the store answers)"
        guard let caughtUp = liveness.caughtUpAt else { return "the change bus is not yet listening to all of the store: " + effect }
        let behind = now > caughtUp ? Double(now - caughtUp) / 1e9 : 0
        guard behind > LiveView.stalenessBound else { return nil }
        return "the change bus last heard all of the store \(String(format: "%.1f", behind)) s ago (bound \(LiveView.stalenessBound) s): " + effect
    }

    func publish(_ message: LiveBusMessage) {
        lock.lock()
        let bus = self.bus
        lock.unlock()
        bus?.publish(message)
    }
}
