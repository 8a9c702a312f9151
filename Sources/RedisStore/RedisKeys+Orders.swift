import Foundation
import GeoCore
import LiveMap

/// Delivery orders' keys. An order is one hash in its own slot (`{o:ID}`): the customer reads it by id alone, and a
/// move is a compare-and-set on that one key. Each party's slot keeps an index of the orders they are in, for deleting
/// an account, and the Dasher's one set of order ids a state, so a fix reads only the orders being driven, however
/// many the Dasher delivered before. Indexes may name more than is so (an order gone or moved on): readers check.
extension RedisKeys {
    static func order(_ id: String) -> String { "{o:\(id)}" }
    /// The ids of the orders the person is the customer or the Dasher of.
    static func orders(_ id: PersonID) -> String { "\(person(id)):orders" }
    /// The ids of the orders the person delivers that are in `state`.
    static func dashing(_ id: PersonID, _ state: String) -> String { "\(person(id)):dashing:\(state)" }
    /// The states that have a `dashing` set of the person (for deleting them).
    static func dashingStates(_ id: PersonID) -> String { "\(person(id)):dashing" }

    static let orderFields = ["store", "customer", "dasher", "items", "from_lat", "from_lon", "to_lat", "to_lon", "state", "entered"]

    /// The field/value pairs of `order`: items and entry times (milliseconds by state) as JSON with sorted keys.
    static func values(_ order: OrderRecord) -> [String] {
        ["store", order.storeName, "customer", order.customer.rawValue, "dasher", order.dasher.rawValue, "items", json(order.items),
         "from_lat", String(order.from.lat), "from_lon", String(order.from.lon), "to_lat", String(order.to.lat), "to_lon", String(order.to.lon),
         "state", order.state, "entered", entered(order)]
    }

    /// The entry times of `order`, as JSON milliseconds by state name.
    static func entered(_ order: OrderRecord) -> String { json(order.entered.mapValues(milliseconds)) }

    /// The order `id` from its `orderFields` values (nil when there is none, or its places were damaged).
    static func order(_ id: String, _ values: [RedisReply]) -> OrderRecord? {
        guard values.count == orderFields.count, let customer = values[1].text, let dasher = values[2].text, let state = values[8].text,
              let from = try? Coordinate(lat: values[4].text.flatMap(Double.init) ?? .nan, lon: values[5].text.flatMap(Double.init) ?? .nan),
              let to = try? Coordinate(lat: values[6].text.flatMap(Double.init) ?? .nan, lon: values[7].text.flatMap(Double.init) ?? .nan) else { return nil }
        let items = (try? JSONDecoder().decode([String].self, from: Data((values[3].text ?? "[]").utf8))) ?? []
        let entered = (try? JSONDecoder().decode([String: Int].self, from: Data((values[9].text ?? "{}").utf8))) ?? [:]
        return OrderRecord(id: id, storeName: values[0].text ?? "", customer: PersonID(trusted: customer), dasher: PersonID(trusted: dasher),
                           items: items, from: from, to: to, state: state, entered: entered.mapValues(date))
    }

    private static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }

    /// Adds an order (`ARGV`: its field/value pairs) when its id is free, atomically (one key): 1 added, 0 taken.
    static let addOrderScript = "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end redis.call('HSET', KEYS[1], unpack(ARGV)) return 1"
    /// Moves an order from state ARGV[1] to ARGV[2] with entry times ARGV[3], only if it is in ARGV[1] (the
    /// compare-and-set of two racing events): 1 moved, 0 not (another event moved it first, or it is gone).
    static let moveOrderScript = """
        if redis.call('HGET', KEYS[1], 'state') ~= ARGV[1] then return 0 end
        redis.call('HSET', KEYS[1], 'state', ARGV[2], 'entered', ARGV[3])
        return 1
        """
}
