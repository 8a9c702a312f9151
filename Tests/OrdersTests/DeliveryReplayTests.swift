import Foundation
import GeoCore
import LiveMap
import Orders
import Routing
import Testing

/// The seed's orders replayed through the order's life, the Dasher rule and the drive tracker.
@Suite struct DeliveryReplayTests {
    static let start = Date(timeIntervalSince1970: 1_780_698_600)

    static func replay(from store: Coordinate, seed: UInt64) throws -> [CustomerView] {
        let order = try Order(id: OrderID("o1"), storeName: "Lucia's", customer: PersonID("samriv"), dasher: PersonID("marcus"),
                              items: ["Margherita pie"], at: start)
        return try DeliveryReplay.run(router: DriveTrackerTests.router.get(), order: order, from: store, to: DriveTrackerTests.home,
                                      start: start, seed: seed)
    }

    /// Lucia's (0.6 km) and Sakura in Bay Ridge (about 6 km).
    @Test(arguments: [(40.6744, -73.98195), (40.63446, -74.02317)])
    func theOrderGoesThroughEveryStateAndItsCustomerSeesTheDasherOnlyWhileTheyDrive(lat: Double, lon: Double) throws {
        let views = try Self.replay(from: Coordinate(lat: lat, lon: lon), seed: 30)
        let states = views.map(\.state)
        #expect(states == states.sorted(), "states only move forward")
        #expect(Set(states) == [.confirming, .preparing, .heading, .nearby, .complete])
        #expect(views.map(\.at) == views.map(\.at).sorted())
        for view in views {
            #expect((view.dasher != nil) == view.state.isDriving, "the Dasher shows from pickup to drop-off only: \(view)")
            #expect((view.arrives != nil) == view.state.isDriving)
        }
        let driving = views.filter(\.state.isDriving)
        let planned = try #require(driving.first?.remainingMeters)
        let firstNearby = try #require(driving.first { $0.state == .nearby })
        #expect(try #require(firstNearby.remainingMeters) <= 0.25 * planned)
        #expect(driving.filter { $0.state == .heading }.allSatisfy { ($0.remainingMeters ?? 0) > 0.25 * planned })
        #expect((driving.last?.remainingMeters ?? .infinity) < 60, "the last fix is at the door")
        let home = DriveTrackerTests.home
        let lastSeen = try #require(driving.last?.dasher)
        #expect(Geodesic.wgs84.distance(lastSeen, home) < 80)
    }
}
