import Foundation
import LiveMap

/// Where an order is in its life, in the order the delivery app's sheet shows the steps.
public enum OrderState: String, Sendable, Codable, CaseIterable, Comparable {
    case confirming, preparing, heading, nearby, complete, cancelled

    /// Complete and cancelled orders change no more.
    public var isFinal: Bool { self == .complete || self == .cancelled }

    /// Between pickup and drop-off: the Dasher is driving to the customer.
    public var isDriving: Bool { self == .heading || self == .nearby }

    public static func < (lhs: OrderState, rhs: OrderState) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What happens to an order: the store confirms it, the Dasher picks it up, the drive reaches its last quarter,
/// the Dasher drops it off, or someone cancels it.
public enum OrderEvent: String, Sendable, Codable, CaseIterable {
    case confirm, pickup, nearby, dropoff, cancel
}

/// An order's id: 1 to 32 of `a-z`, `0-9`, `_` and `-`, as a person's.
public struct OrderID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// Validates `text`; the error names `field`.
    public init(_ text: String, field: String = "order") throws(LiveMapError) {
        do {
            rawValue = try PersonID(text, field: field).rawValue
        } catch {
            throw .invalid(field: field, message: "must be 1 to 32 characters of a-z, 0-9, _ and -; got \"\(text.prefix(40))\"")
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: OrderID, rhs: OrderID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A delivery order: a store, a customer and a Dasher (people of the live store), items as opaque text, the
/// state it is in and the server time it entered each state it has been in.
public struct Order: Sendable, Equatable {
    public static let maxItems = 50
    public let id: OrderID
    public let storeName: String
    public let customer: PersonID
    public let dasher: PersonID
    public let items: [String]
    public private(set) var state: OrderState
    /// When the order entered each state it has been in (server time).
    public private(set) var entered: [OrderState: Date]

    /// A new order, confirming from `now`; refuses a Dasher who is the customer and item lists out of range.
    public init(id: OrderID, storeName: String, customer: PersonID, dasher: PersonID, items: [String], at now: Date) throws(LiveMapError) {
        guard customer != dasher else { throw .invalid(field: "dasher", message: "must not be the order's customer") }
        guard (1...Self.maxItems).contains(items.count) else { throw .invalid(field: "items", message: "must be 1 to \(Self.maxItems) items, got \(items.count)") }
        for (index, item) in items.enumerated() { _ = try PersonText.checked(item, field: "items[\(index)]") }
        _ = try PersonText.checked(storeName, field: "store")
        self.init(id: id, storeName: storeName, customer: customer, dasher: dasher, items: items, state: .confirming, entered: [.confirming: now])
    }

    /// An order as a store read it back (validated when it was written).
    public init(id: OrderID, storeName: String, customer: PersonID, dasher: PersonID, items: [String], state: OrderState, entered: [OrderState: Date]) {
        self.id = id
        self.storeName = storeName
        self.customer = customer
        self.dasher = dasher
        self.items = items
        self.state = state
        self.entered = entered
    }

    /// The states `event` moves an order out of, and where it goes.
    public static func transition(_ event: OrderEvent) -> (from: Set<OrderState>, to: OrderState) {
        switch event {
        case .confirm: return ([.confirming], .preparing)
        case .pickup: return ([.preparing], .heading)
        case .nearby: return ([.heading], .nearby)
        case .dropoff: return ([.heading, .nearby], .complete)
        case .cancel: return ([.confirming, .preparing, .heading, .nearby], .cancelled)
        }
    }

    /// Applies `event` at server time `now`; a conflict names the state and the states the event needs, and
    /// changes nothing.
    public mutating func apply(_ event: OrderEvent, at now: Date) throws(LiveMapError) {
        let (from, to) = Self.transition(event)
        guard from.contains(state) else {
            let allowed = from.sorted().map(\.rawValue).joined(separator: " or ")
            throw .conflict(message: "order \(id) is \(state.rawValue); \(event.rawValue) needs it \(allowed)")
        }
        state = to
        entered[to] = now
    }
}
