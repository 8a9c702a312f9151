import Foundation
import GeoCore
import LiveMap
import Orders

/// `snapmap orders create|show|confirm|pickup|nearby|dropoff|cancel`: the operator's orders in the live store.
enum StoredOrders {
    /// Runs `action` on the order named by `arguments[1]`.
    static func run(_ arguments: [String], _ options: ParsedOptions) throws -> String {
        let actions = ["create", "show"] + OrderEvent.allCases.map(\.rawValue)
        guard arguments.count == 2, actions.contains(arguments[0]) else {
            throw UsageError(description: "expected route, or one of \(actions.joined(separator: ", ")) and an order id")
        }
        let (_, _, live, now) = try LiveOptions.live(options)
        guard let store = live.orderStore else { throw UsageError(description: "this live store keeps no orders") }
        let book = OrderBook(store: store)
        do {
            let id = try OrderID(arguments[1])
            switch arguments[0] {
            case "create":
                let items = try options.required("items").split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                let order = try Order(id: id, storeName: options.required("merchant"), customer: PersonID(options.required("customer"), field: "--customer"),
                                      dasher: PersonID(options.required("dasher"), field: "--dasher"), items: items, at: now)
                let stored = StoredOrder(order, from: try Coordinate(parsing: options.required("from"), field: "from"),
                                         to: try Coordinate(parsing: options.required("to"), field: "to"))
                try book.create(stored)
                return try json(stored)
            case "show":
                guard let stored = try book.order(id) else { throw OrderBookError.unknownOrder(id) }
                return try json(stored)
            default:
                return try json(book.apply(OrderEvent(rawValue: arguments[0])!, to: id, at: now))
            }
        } catch LiveMapError.notFound(let id) {
            throw UnknownPerson(id: id)
        } catch let error as LiveMapError {
            throw UsageError(description: error.description)
        }
    }

    /// The order as the operator reads it: every field, entry times in ISO 8601, keys sorted.
    static func json(_ stored: StoredOrder) throws -> String {
        struct Shown: Encodable {
            let id, store, customer, dasher, state: String
            let items: [String]
            let from, to: Coordinate
            let entered: [String: Date]
        }
        let order = stored.order
        let shown = Shown(id: order.id.rawValue, store: order.storeName, customer: order.customer.rawValue, dasher: order.dasher.rawValue,
                          state: order.state.rawValue, items: order.items, from: stored.from, to: stored.to,
                          entered: Dictionary(uniqueKeysWithValues: order.entered.map { ($0.key.rawValue, $0.value) }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(shown), as: UTF8.self)
    }
}
