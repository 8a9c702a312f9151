import Foundation
import GeoCore
import LiveMap
import Orders
import RedisStore
import Testing

/// Orders in the live store, on SQLite and on Redis Cluster alike: read back as written, moved only in turn (two
/// racing events never both apply), the Dasher rule holding on what the store keeps, and gone with either party's
/// account.
@Suite struct OrderBookTests {
    static let t0 = Date(timeIntervalSince1970: 1_780_698_600)
    static let store = try! Coordinate(lat: 40.6795, lon: -73.9810), home = try! Coordinate(lat: 40.67015, lon: -73.98549)

    static func order(_ id: String, customer: String, dasher: String, items: [String] = ["Margherita pie"], store: String = "Lucia's") throws -> Order {
        try Order(id: OrderID(id), storeName: store, customer: PersonID(customer), dasher: PersonID(dasher), items: items, at: t0)
    }

    @Test(arguments: OrderStoreKind.allCases)
    func anOrderMovesThroughEveryStateAndReadsBackAsTheModelHasIt(_ kind: OrderStoreKind) throws {
        let world = try OrderWorld(kind, ["sam", "marcus"])
        let (book, marcus) = (world.book, try PersonID(world.id("marcus")))
        var model = try Self.order(world.id("o1"), customer: world.id("sam"), dasher: marcus.rawValue, items: ["Margherita pie", "Garlic knots; extra <b>"])
        try book.create(StoredOrder(model, from: Self.store, to: Self.home))
        #expect(try book.order(model.id) == StoredOrder(model, from: Self.store, to: Self.home))
        for (step, event) in [OrderEvent.confirm, .pickup, .nearby, .dropoff].enumerated() {
            let now = Self.t0.addingTimeInterval(Double(step + 1) * 61.25)
            try model.apply(event, at: now)
            #expect(try book.apply(event, to: model.id, at: now).order == model)
            #expect(try book.order(model.id) == StoredOrder(model, from: Self.store, to: Self.home), "after \(event)")
            #expect(try book.driving(by: marcus).map(\.order) == (model.state.isDriving ? [model] : []), "after \(event)")
        }
        #expect(model.state == .complete && model.entered.count == 5)
    }

    @Test(arguments: OrderStoreKind.allCases)
    func anEventOutOfTurnOrOnAMovedOrderChangesNothing(_ kind: OrderStoreKind) throws {
        let world = try OrderWorld(kind, ["sam", "marcus"])
        let book = world.book
        let order = try Self.order(world.id("o1"), customer: world.id("sam"), dasher: world.id("marcus"))
        try book.create(StoredOrder(order, from: Self.store, to: Self.home))
        #expect(throws: LiveMapError.conflict(message: "order \(order.id) is confirming; dropoff needs it heading or nearby")) {
            try book.apply(.dropoff, to: order.id, at: Self.t0.addingTimeInterval(5))
        }
        #expect(try book.order(order.id)?.order == order)
        // A writer that read the order before another moved it: its write is refused and changes nothing.
        var stale = order
        try stale.apply(.cancel, at: Self.t0.addingTimeInterval(9))
        let confirmed = try book.apply(.confirm, to: order.id, at: Self.t0.addingTimeInterval(7)).order
        #expect(try world.store.updateOrder(OrderRecord(id: order.id.rawValue, storeName: stale.storeName, customer: stale.customer, dasher: stale.dasher,
                                                        items: stale.items, from: Self.store, to: Self.home, state: "cancelled",
                                                        entered: ["cancelled": Self.t0]), expecting: "confirming") == false)
        #expect(try book.order(order.id)?.order == confirmed)
        let nope = try OrderID(world.id("nope"))
        #expect(throws: OrderBookError.unknownOrder(nope)) { try book.apply(.confirm, to: nope, at: Self.t0) }
    }

    /// Eight writers that all read the order while it was preparing, each moving it on at once with a pickup of its
    /// own time: exactly one write applies (the store's compare-and-set), the store keeps that writer's order, and a
    /// pickup through the book then is refused naming the state it found.
    @Test(arguments: OrderStoreKind.allCases)
    func racingEventsNeverBothApply(_ kind: OrderStoreKind) throws {
        let world = try OrderWorld(kind, ["sam", "marcus"])
        let order = try Self.order(world.id("race"), customer: world.id("sam"), dasher: world.id("marcus"))
        try world.book.create(StoredOrder(order, from: Self.store, to: Self.home))
        let read = try world.book.apply(.confirm, to: order.id, at: Self.t0.addingTimeInterval(1)).order
        let moves = try (0..<8).map { index in
            var moved = read
            try moved.apply(.pickup, at: Self.t0.addingTimeInterval(Double(10 + index)))
            return moved
        }
        let (outcomes, store) = (Outcomes(), world.store)
        DispatchQueue.concurrentPerform(iterations: moves.count) { index in
            let record = OrderRecord(id: read.id.rawValue, storeName: read.storeName, customer: read.customer, dasher: read.dasher, items: read.items,
                                     from: Self.store, to: Self.home, state: moves[index].state.rawValue,
                                     entered: Dictionary(uniqueKeysWithValues: moves[index].entered.map { ($0.key.rawValue, $0.value) }))
            if (try? store.updateOrder(record, expecting: read.state.rawValue)) == true { outcomes.add(index) }
        }
        let winners = outcomes.all
        #expect(winners.count == 1, "writes applied: \(winners)")
        #expect(try world.book.order(order.id)?.order == winners.first.map { moves[$0] }, "the store keeps the one write that applied")
        #expect(throws: LiveMapError.conflict(message: "order \(order.id) is heading; pickup needs it preparing")) {
            try world.book.apply(.pickup, to: order.id, at: Self.t0.addingTimeInterval(30))
        }
    }

    /// The Dasher rule on orders read back from the store, against the model of `OrderLifeTests`: random events,
    /// each accepted or refused as the in-memory order has it, and the Dasher's driving orders as the model's.
    @Test(arguments: OrderStoreKind.allCases)
    func theDasherRuleHoldsOnStoredOrders(_ kind: OrderStoreKind) throws {
        let names = ["ana", "ben", "cat"]
        let world = try OrderWorld(kind, names)
        let people = try names.map { try PersonID(world.id($0)) }
        var random = SplitMix64(seed: 30)
        for round in 0..<24 {
            let customer = people[Int(random.next() % 3)]
            let dasher = people.filter { $0 != customer }[Int(random.next() % 2)]
            var now = Self.t0
            var model = try Order(id: OrderID(world.id("r\(round)")), storeName: "Lucia's", customer: customer, dasher: dasher, items: ["Pie"], at: now)
            try world.book.create(StoredOrder(model, from: Self.store, to: Self.home))
            var accepted: [OrderEvent] = []
            for _ in 0..<Int(random.next() % 6) {
                let event = OrderEvent.allCases[Int(random.next() % UInt64(OrderEvent.allCases.count))]
                now = now.addingTimeInterval(Double(random.next() % 600))
                let applied = (try? world.book.apply(event, to: model.id, at: now)) != nil
                #expect(applied == ((try? model.apply(event, at: now)) != nil), "\(event) after \(accepted)")
                if applied { accepted.append(event) }
                let stored = try #require(try world.book.order(model.id)?.order)
                #expect(stored == model)
                for viewer in people {
                    #expect(DasherRule.seesDasher(viewer, of: stored)
                            == OrderLifeTests.modelSeesDasher(viewer, customer: customer, dasher: dasher, accepted: accepted))
                }
                #expect(try world.book.driving(by: dasher).contains { $0.order.id == model.id } == model.state.isDriving)
            }
        }
    }

    /// On Redis Cluster a Dasher's fix reads only the orders being driven, however many the Dasher delivered before:
    /// their sets of heading and nearby orders (what `driving` reads) hold just those, as Redis itself lists them.
    @Test func onRedisADashersDrivingOrdersAreReadWithoutTheirPastOnes() throws {
        let world = try OrderWorld(.redis, ["sam", "marcus"])
        let marcus = try PersonID(world.id("marcus"))
        for index in 0..<6 {
            let order = try Self.order(world.id("past\(index)"), customer: world.id("sam"), dasher: marcus.rawValue)
            try world.book.create(StoredOrder(order, from: Self.store, to: Self.home))
            let events: [OrderEvent] = index == 5 ? [.confirm, .pickup] : index.isMultiple(of: 2) ? [.confirm, .pickup, .dropoff] : [.cancel]
            for (step, event) in events.enumerated() { try world.book.apply(event, to: order.id, at: Self.t0.addingTimeInterval(Double(step))) }
        }
        let redis = try RedisCluster(seeds: RedisCluster.seeds(from: OrderStoreKind.cluster.get().url))
        let sets = try redis.run(["heading", "nearby"].map { ["SMEMBERS", "{p:\(marcus)}:dashing:\($0)"] }).flatMap { $0.elements.compactMap(\.text) }
        #expect(sets == [world.id("past5")], "the Dasher's driving sets: \(sets)")
        #expect(try world.book.driving(by: marcus).map(\.order.id.rawValue) == [world.id("past5")])
    }

    @Test(arguments: OrderStoreKind.allCases)
    func aTakenIdOrAnUnknownPersonIsRefusedAndChangesNothing(_ kind: OrderStoreKind) throws {
        let world = try OrderWorld(kind, ["sam", "marcus"])
        let book = world.book
        let first = try Self.order(world.id("o1"), customer: world.id("sam"), dasher: world.id("marcus"))
        try book.create(StoredOrder(first, from: Self.store, to: Self.home))
        #expect(throws: LiveMapError.conflict(message: "order \(first.id) exists")) {
            try book.create(StoredOrder(Self.order(first.id.rawValue, customer: world.id("marcus"), dasher: world.id("sam"), store: "Sakura"), from: Self.home, to: Self.store))
        }
        #expect(try book.order(first.id)?.order == first)
        #expect(try book.driving(by: PersonID(world.id("sam"))).isEmpty)
        #expect(throws: LiveMapError.notFound(id: world.id("ghost"))) {
            try book.create(StoredOrder(Self.order(world.id("o2"), customer: world.id("sam"), dasher: world.id("ghost")), from: Self.store, to: Self.home))
        }
        #expect(throws: LiveMapError.notFound(id: world.id("nobody"))) {
            try book.create(StoredOrder(Self.order(world.id("o3"), customer: world.id("nobody"), dasher: world.id("marcus")), from: Self.store, to: Self.home))
        }
        #expect(try book.order(OrderID(world.id("o2"))) == nil && book.order(OrderID(world.id("o3"))) == nil)
    }

    @Test(arguments: OrderStoreKind.allCases)
    func deletingAnAccountErasesItsOrdersAsCustomerAndAsDasherToTheLastByte(_ kind: OrderStoreKind) throws {
        let world = try OrderWorld(kind, ["quixote-z", "sam", "marcus"])
        let (deli, tartlet) = ("Zanzibar Deli" + world.tag, "Quince tartlet" + world.tag)
        let hers = try Self.order(world.id("zorder-1"), customer: world.id("quixote-z"), dasher: world.id("marcus"), items: [tartlet], store: deli)
        let dashed = try Self.order(world.id("zorder-2"), customer: world.id("sam"), dasher: world.id("quixote-z"), items: ["Bagel"])
        let unrelated = try Self.order(world.id("plain-3"), customer: world.id("sam"), dasher: world.id("marcus"))
        for order in [hers, dashed, unrelated] { try world.book.create(StoredOrder(order, from: Self.store, to: Self.home)) }
        try world.book.apply(.confirm, to: dashed.id, at: Self.t0.addingTimeInterval(30))
        try world.live.removePerson(world.id("quixote-z"))
        #expect(try world.book.order(hers.id) == nil && world.book.order(dashed.id) == nil)
        #expect(try world.book.order(unrelated.id)?.order == unrelated)
        let bytes = try world.bytes()
        for needle in [world.id("quixote-z"), world.id("zorder-1"), world.id("zorder-2"), tartlet, deli] {
            #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(needle) is still in the store")
        }
        #expect(bytes.range(of: Data(world.id("plain-3").utf8)) != nil, "the check reads the store: the unrelated order is there")
    }
}

/// Which racing writers' writes applied, gathered under a lock.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var applied: [Int] = []

    func add(_ writer: Int) { lock.withLock { applied.append(writer) } }
    var all: [Int] { lock.withLock { applied } }
}
