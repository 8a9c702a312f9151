import Foundation
import LiveMap
import Orders
import SQLiteKit
import Testing

/// Orders in the live store's SQLite file: read back as written, moved only in turn, and gone with either party's
/// account.
@Suite struct OrderBookTests {
    static let t0 = Date(timeIntervalSince1970: 1_780_698_600)

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
        try book.create(model)
        #expect(try book.order(model.id) == model)
        for (step, event) in [OrderEvent.confirm, .pickup, .nearby, .dropoff].enumerated() {
            let now = Self.t0.addingTimeInterval(Double(step + 1) * 61.25)
            try model.apply(event, at: now)
            #expect(try book.apply(event, to: model.id, at: now) == model)
            #expect(try book.order(model.id) == model, "after \(event)")
        }
        #expect(model.state == .complete && model.entered.count == 5)
    }

    @Test func anEventOutOfTurnOrOnAMovedOrderChangesNothing() throws {
        let (store, book, _) = try Self.book(["sam", "marcus"])
        let order = try Self.order("o1", customer: "sam", dasher: "marcus")
        try book.create(order)
        #expect(throws: LiveMapError.conflict(message: "order o1 is confirming; dropoff needs it heading or nearby")) {
            try book.apply(.dropoff, to: order.id, at: Self.t0.addingTimeInterval(5))
        }
        #expect(try book.order(order.id) == order)
        // A writer that read the order before another moved it: its write is refused and changes nothing.
        var stale = order
        try stale.apply(.cancel, at: Self.t0.addingTimeInterval(9))
        let confirmed = try book.apply(.confirm, to: order.id, at: Self.t0.addingTimeInterval(7))
        #expect(try store.updateOrder(OrderRecord(id: "o1", storeName: stale.storeName, customer: stale.customer, dasher: stale.dasher,
                                                  items: stale.items, state: "cancelled", entered: ["cancelled": Self.t0]), expecting: "confirming") == false)
        #expect(try book.order(order.id) == confirmed)
        #expect(throws: OrderBookError.unknownOrder(try OrderID("nope"))) { try book.apply(.confirm, to: OrderID("nope"), at: Self.t0) }
    }

    @Test func aTakenIdOrAnUnknownPersonIsRefusedAndChangesNothing() throws {
        let (_, book, _) = try Self.book(["sam", "marcus"])
        let first = try Self.order("o1", customer: "sam", dasher: "marcus")
        try book.create(first)
        #expect(throws: LiveMapError.conflict(message: "order o1 exists")) {
            try book.create(Self.order("o1", customer: "marcus", dasher: "sam", store: "Sakura"))
        }
        #expect(try book.order(first.id) == first)
        #expect(throws: LiveMapError.notFound(id: "ghost")) { try book.create(Self.order("o2", customer: "sam", dasher: "ghost")) }
        #expect(throws: LiveMapError.notFound(id: "nobody")) { try book.create(Self.order("o3", customer: "nobody", dasher: "marcus")) }
        #expect(try book.order(OrderID("o2")) == nil && book.order(OrderID("o3")) == nil)
    }

    @Test func deletingAnAccountErasesItsOrdersAsCustomerAndAsDasherToTheLastByte() throws {
        let (store, book, live) = try Self.book(["quixote-z", "sam", "marcus"])
        let hers = try Self.order("zorder-1", customer: "quixote-z", dasher: "marcus", items: ["Quince tartlet"], store: "Zanzibar Deli")
        let dashed = try Self.order("zorder-2", customer: "sam", dasher: "quixote-z", items: ["Bagel"])
        let unrelated = try Self.order("plain-3", customer: "sam", dasher: "marcus")
        for order in [hers, dashed, unrelated] { try book.create(order) }
        try book.apply(.confirm, to: dashed.id, at: Self.t0.addingTimeInterval(30))
        try live.removePerson("quixote-z")
        #expect(try book.order(hers.id) == nil && book.order(dashed.id) == nil)
        #expect(try book.order(unrelated.id) == unrelated)
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
