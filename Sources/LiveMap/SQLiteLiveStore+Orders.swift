import Foundation
import GeoCore
import SQLiteKit

/// Delivery orders in the SQLite file: one row each, its customer and Dasher by person row (so an account's
/// deletion takes its orders, either role, in the same transaction), items and entry times as JSON text.
extension SQLiteLiveStore {
    /// Schema version 4: the orders table.
    static let ordersSchema = """
        CREATE TABLE orders (id TEXT PRIMARY KEY, store TEXT NOT NULL,
            customer_row INTEGER NOT NULL REFERENCES people(row), dasher_row INTEGER NOT NULL REFERENCES people(row),
            items TEXT NOT NULL, from_lat REAL NOT NULL, from_lon REAL NOT NULL, to_lat REAL NOT NULL, to_lon REAL NOT NULL,
            state TEXT NOT NULL, entered TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX orders_by_customer ON orders (customer_row);
        CREATE INDEX orders_by_dasher ON orders (dasher_row);
        """

    /// Adds `order`, telling the change log (other processes tell its customer's streams); false when its id is
    /// taken (nothing changes). An unknown customer or Dasher is `notFound` naming them, and adds nothing.
    public func addOrder(_ order: OrderRecord) throws -> Bool {
        let row: [SQLiteDatabase.Value] = [.text(order.id), .text(order.storeName), .text(order.customer.rawValue), .text(order.dasher.rawValue),
                                           .text(Self.json(order.items)), .real(order.from.lat), .real(order.from.lon), .real(order.to.lat),
                                           .real(order.to.lon), .text(order.state), .text(Self.json(Self.milliseconds(order.entered)))]
        return try write { database in
            for person in [order.customer, order.dasher] where try database.query("SELECT 1 FROM people WHERE id = ?", [.text(person.rawValue)]).isEmpty {
                throw LiveMapError.notFound(id: person.rawValue)
            }
            guard try database.change("""
                INSERT OR IGNORE INTO orders VALUES (?1, ?2, \(SQLiteSchema.row(3)), \(SQLiteSchema.row(4)), ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                """, row) == 1 else { return false }
            try self.log(database, .order(OrderNotice(order: order.id, customer: order.customer)))
            return true
        }
    }

    private static let selectOrders = """
        SELECT o.id, o.store, c.id, d.id, o.items, o.state, o.entered, o.from_lat, o.from_lon, o.to_lat, o.to_lon
        FROM orders o JOIN people c ON c.row = o.customer_row JOIN people d ON d.row = o.dasher_row
        """

    /// The order `id`, or nil.
    public func order(_ id: String) throws -> OrderRecord? {
        try read { database in try database.query(Self.selectOrders + " WHERE o.id = ?", [.text(id)]).first.flatMap(Self.record) }
    }

    /// The orders `dasher` delivers that are in one of `states`, by id.
    public func orders(ofDasher dasher: PersonID, in states: [String]) throws -> [OrderRecord] {
        try read { database in
            try database.query(Self.selectOrders + " WHERE d.id = ? AND o.state IN (SELECT value FROM json_each(?)) ORDER BY o.id",
                               [.text(dasher.rawValue), .text(Self.json(states))]).compactMap(Self.record)
        }
    }

    /// Writes `order`'s state and entry times if the stored order is still in state `expected` (so two
    /// writers never both move it from one state), telling the change log; false, changing nothing, when it is
    /// not (or is gone).
    public func updateOrder(_ order: OrderRecord, expecting expected: String) throws -> Bool {
        let row: [SQLiteDatabase.Value] = [.text(order.state), .text(Self.json(Self.milliseconds(order.entered))), .text(order.id), .text(expected)]
        return try write { database in
            guard try database.change("UPDATE orders SET state = ?1, entered = ?2 WHERE id = ?3 AND state = ?4", row) == 1 else { return false }
            try self.log(database, .order(OrderNotice(order: order.id, customer: order.customer)))
            return true
        }
    }

    /// An order row (written validated; nil only if its places were damaged).
    private static func record(_ row: [SQLiteDatabase.Value]) -> OrderRecord? {
        guard let from = try? Coordinate(lat: row[7].real ?? .nan, lon: row[8].real ?? .nan),
              let to = try? Coordinate(lat: row[9].real ?? .nan, lon: row[10].real ?? .nan) else { return nil }
        let items = (try? JSONDecoder().decode([String].self, from: Data((row[4].text ?? "[]").utf8))) ?? []
        let entered = (try? JSONDecoder().decode([String: Int].self, from: Data((row[6].text ?? "{}").utf8))) ?? [:]
        return OrderRecord(id: row[0].text ?? "", storeName: row[1].text ?? "", customer: PersonID(trusted: row[2].text ?? ""),
                           dasher: PersonID(trusted: row[3].text ?? ""), items: items,
                           from: from, to: to,
                           state: row[5].text ?? "", entered: entered.mapValues(SQLiteSchema.date))
    }

    private static func milliseconds(_ entered: [String: Date]) -> [String: Int] { entered.mapValues(SQLiteSchema.milliseconds) }

    private static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}
