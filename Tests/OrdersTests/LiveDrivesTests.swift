import Foundation
import GeoCore
import LiveMap
import Orders
import Routing
import Testing

/// Orders being driven, fed a simulated Dasher's fixes as the server feeds them: the order turns nearby in the
/// store, the customer sees where the Dasher is, and a deleted account's drives leave memory.
@Suite struct LiveDrivesTests {
    /// Feeds `fix` to `drives` and waits for what it answers (the fix of a Dasher driving one order answers one).
    static func add(_ drives: LiveDrives, _ fix: LocationFix, of dasher: PersonID) async -> [(order: Order, view: CustomerView)] {
        await withCheckedContinuation { continuation in
            drives.add(fix, of: dasher, at: fix.takenAt) { moved in continuation.resume(returning: moved) }
        }
    }

    @Test(arguments: OrderStoreKind.allCases)
    func aDashersFixesTurnTheOrderNearbyAndADeletedCustomersDriveIsForgotten(_ kind: OrderStoreKind) async throws {
        let router = try DriveTrackerTests.router.get()
        let world = try OrderWorld(kind, ["cora", "dash"])
        let (book, live, t0) = (world.book, world.live, OrderBookTests.t0)
        let (cora, dash) = (try PersonID(world.id("cora")), try PersonID(world.id("dash")))
        let order = try Order(id: OrderID(world.id("o1")), storeName: "Lucia's", customer: cora, dasher: dash, items: ["Pie"], at: t0)
        try book.create(StoredOrder(order, from: DriveTrackerTests.store, to: DriveTrackerTests.home))
        try book.apply(.confirm, to: order.id, at: t0.addingTimeInterval(60))
        try book.apply(.pickup, to: order.id, at: t0.addingTimeInterval(120))
        let drives = LiveDrives(book: book, network: StreetNetwork { router })
        var search = RouteSearch(nodeCount: router.graph.nodeCount)
        let route = try #require(router.route(from: router.position(of: DriveTrackerTests.store, field: "from"),
                                              to: router.position(of: DriveTrackerTests.home, field: "to"), search: &search))
        var random = SplitMix64(seed: 30)
        let drive = SimulatedDrive(route: route, router: router, interval: 5, accuracy: 10, jumpChance: 0, random: &random)
        var last: CustomerView?
        for fix in drive.fixes {
            let location = try LocationFix(coordinate: WebMercator.unprojectUnchecked(fix.point), accuracyMeters: 10,
                                           takenAt: t0.addingTimeInterval(120 + fix.time))
            let moved = await Self.add(drives, location, of: dash)
            #expect(moved.count == 1 && moved.first?.order.id == order.id)
            last = moved.first?.view
        }
        #expect(try book.order(order.id)?.order.state == .nearby, "the store has the order nearby at the drive's end")
        let seen = try #require(last)
        let left = try #require(seen.remainingMeters)
        #expect(seen.state == .nearby && seen.dasher != nil && left < 0.25 * route.length)
        let nearby = try #require(try book.order(order.id)?.order)
        #expect(drives.view(of: nearby) == seen, "asked later, the customer's answer is the one the last fix gave, Arrives included")
        try live.removePerson(cora.rawValue)
        drives.forget(cora)
        #expect(drives.view(of: nearby) == nil, "the deleted customer's drive left memory")
    }

    /// While the street network is being built, the map is refused at once (the server's 503) and a Dasher's fix
    /// waits on the drives' own queue; once it is built the fix is taken and the map is answered.
    @Test func whileTheNetworkIsBuiltTheMapIsRefusedAtOnceAndFixesWait() async throws {
        let router = try DriveTrackerTests.router.get()
        let world = try OrderWorld(.sqlite, ["cora", "dash"])
        let (book, t0) = (world.book, OrderBookTests.t0)
        let dasher = try PersonID(world.id("dash"))
        let order = try Order(id: OrderID(world.id("o2")), storeName: "Lucia's", customer: PersonID(world.id("cora")), dasher: dasher, items: ["Pie"], at: t0)
        let stored = StoredOrder(order, from: DriveTrackerTests.store, to: DriveTrackerTests.home)
        try book.create(stored)
        try book.apply(.confirm, to: order.id, at: t0.addingTimeInterval(60))
        let picked = try book.apply(.pickup, to: order.id, at: t0.addingTimeInterval(120))
        let gate = DispatchSemaphore(value: 0)
        let drives = LiveDrives(book: book, network: StreetNetwork {
            gate.wait()
            return router
        })
        #expect(throws: StreetsNotReady.self) { try drives.map(of: picked) }
        let fix = try LocationFix(coordinate: DriveTrackerTests.store, accuracyMeters: 10, takenAt: t0.addingTimeInterval(125))
        let moved = Task { await Self.add(drives, fix, of: dasher) }
        #expect(throws: StreetsNotReady.self, "the fix waits; nobody else does") { try drives.map(of: picked) }
        gate.signal()
        let answered = await moved.value
        #expect(answered.count == 1 && answered.first?.view.dasher != nil, "the fix sent before the network was built was taken")
        #expect(try drives.map(of: picked).dasher != nil)
    }
}
