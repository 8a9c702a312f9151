import Foundation
import GeoCore
import LiveMap
import Orders
import SQLiteKit
import Testing

/// Orders in the live store's SQLite file: read back as written, moved only in turn, and gone with either party's
/// account.
@Suite struct OrderBookTests {
    static let t0 = Date(timeIntervalSince1970: 1_780_698_600)
    static let store = try! Coordinate(lat: 40.6795, lon: -73.9810), home = try! Coordinate(lat: 40.67015, lon: -73.98549)

    /// A new store with the people `ids`, and its order book.
    static func book(_ ids: [String]) throws -> (SQLiteLiveStore, OrderBook, LiveMapService) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-orders-\(UUID().uuidString)/live.db").path
        let store = try SQLiteLiveStore(path: path)
        let live = LiveMapService(store: store)
        for id in ids { try live.addPerson(id: id, name: id.capitalized) }
        return (store, OrderBook(store: store), live)
    }

    static func order(_ id: String, customer: String, dasher: String, items: [String] = ["Margherita pie"], store: String = "Lucia's") throws -> Order {
        try Order(id: OrderID(id), storeName: store, customer: PersonID(customer), dasher: PersonID(dasher), items: items, at: t0)
    }

    @Test func anOrderMovesThroughEveryStateAndReadsBackAsTheModelHasIt() throws {
        let (_, book, _) = try Self.book(["sam", "marcus"])
        var model = try Self.order("o1", customer: "sam", dasher: "marcus", items: ["Margherita pie", "Garlic knots; extra <b>"])
        try book.create(StoredOrder(model, from: Self.store, to: Self.home))
        #expect(try book.order(model.id) == StoredOrder(model, from: Self.store, to: Self.home))
        for (step, event) in [OrderEvent.confirm, .pickup, .nearby, .dropoff].enumerated() {
            let now = Self.t0.addingTimeInterval(Double(step + 1) * 61.25)
            try model.apply(event, at: now)
            #expect(try book.apply(event, to: model.id, at: now).order == model)
            #expect(try book.order(model.id) == StoredOrder(model, from: Self.store, to: Self.home), "after \(event)")
        }
        #expect(model.state == .complete && model.entered.count == 5)
    }

    @Test func anEventOutOfTurnOrOnAMovedOrderChangesNothing() throws {
        let (store, book, _) = try Self.book(["sam", "marcus"])
        let order = try Self.order("o1", customer: "sam", dasher: "marcus")
        try book.create(StoredOrder(order, from: Self.store, to: Self.home))
        #expect(throws: LiveMapError.conflict(message: "order o1 is confirming; dropoff needs it heading or nearby")) {
            try book.apply(.dropoff, to: order.id, at: Self.t0.addingTimeInterval(5))
        }
        #expect(try book.order(order.id)?.order == order)
        // A writer that read the order before another moved it: its write is refused and changes nothing.
        var stale = order
        try stale.apply(.cancel, at: Self.t0.addingTimeInterval(9))
        let confirmed = try book.apply(.confirm, to: order.id, at: Self.t0.addingTimeInterval(7)).order
        #expect(try store.updateOrder(OrderRecord(id: "o1", storeName: stale.storeName, customer: stale.customer, dasher: stale.dasher,
                                                  items: stale.items, from: Self.store, to: Self.home, state: "cancelled", entered: ["cancelled": Self.t0]), expecting: "confirming") == false)
        #expect(try book.order(order.id)?.order == confirmed)
        #expect(throws: OrderBookError.unknownOrder(try OrderID("nope"))) { try book.apply(.confirm, to: OrderID("nope"), at: Self.t0) }
    }

    @Test func aTakenIdOrAnUnknownPersonIsRefusedAndChangesNothing() throws {
        let (_, book, _) = try Self.book(["sam", "marcus"])
        let first = try Self.order("o1", customer: "sam", dasher: "marcus")
        try book.create(StoredOrder(first, from: Self.store, to: Self.home))
        #expect(throws: LiveMapError.conflict(message: "order o1 exists")) {
            try book.create(StoredOrder(Self.order("o1", customer: "marcus", dasher: "sam", store: "Sakura"), from: Self.home, to: Self.store))
        }
        #expect(try book.order(first.id)?.order == first)
        #expect(throws: LiveMapError.notFound(id: "ghost")) { try book.create(StoredOrder(Self.order("o2", customer: "sam", dasher: "ghost"), from: Self.store, to: Self.home)) }
        #expect(throws: LiveMapError.notFound(id: "nobody")) { try book.create(StoredOrder(Self.order("o3", customer: "nobody", dasher: "marcus"), from: Self.store, to: Self.home)) }
        #expect(try book.order(OrderID("o2")) == nil && book.order(OrderID("o3")) == nil)
    }

    @Test func deletingAnAccountErasesItsOrdersAsCustomerAndAsDasherToTheLastByte() throws {
        let (store, book, live) = try Self.book(["quixote-z", "sam", "marcus"])
        let hers = try Self.order("zorder-1", customer: "quixote-z", dasher: "marcus", items: ["Quince tartlet"], store: "Zanzibar Deli")
        let dashed = try Self.order("zorder-2", customer: "sam", dasher: "quixote-z", items: ["Bagel"])
        let unrelated = try Self.order("plain-3", customer: "sam", dasher: "marcus")
        for order in [hers, dashed, unrelated] { try book.create(StoredOrder(order, from: Self.store, to: Self.home)) }
        try book.apply(.confirm, to: dashed.id, at: Self.t0.addingTimeInterval(30))
        try live.removePerson("quixote-z")
        #expect(try book.order(hers.id) == nil && book.order(dashed.id) == nil)
        #expect(try book.order(unrelated.id)?.order == unrelated)
        // The removal notice names the id until the change log is pruned (as `AccountAndBlockTests` does).
        try store.pruneChanges(before: Date().addingTimeInterval(60))
        try SQLiteDatabase(path: store.path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: store.path))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: store.path + "-wal")) { bytes += wal }
        for needle in ["quixote-z", "zorder-1", "zorder-2", "Quince tartlet", "Zanzibar Deli"] {
            #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(needle) is still in the file")
        }
    }
}
