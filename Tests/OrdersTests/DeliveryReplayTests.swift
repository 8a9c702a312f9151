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
        try moments(from: store, seed: seed).map(\.view)
    }

    static func moments(from store: Coordinate, seed: UInt64) throws -> [ReplayMoment] {
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

    /// The customer's map follows what they receive: the Dasher at the position they are told of, the line from
    /// there home as long as the metres they are told are left (a direct geodesic sum), shortening as the Dasher
    /// drives; before pickup the planned drive, after drop-off no line and no Dasher.
    @Test func theCustomersMapShowsTheDasherOnlyWhileTheyDriveAndTheLineShortens() throws {
        let moments = try Self.moments(from: DriveTrackerTests.store, seed: 7)
        for moment in moments {
            #expect(moment.map.dasher == moment.view.dasher)
            if let left = moment.view.remainingMeters {
                let line = try #require(moment.map.remaining)
                let measured = zip(line, line.dropFirst()).map { Geodesic.wgs84.distance($0, $1) }.reduce(0, +)
                #expect(abs(measured - left) < 0.5 + 1e-3 * left, "the line drawn is the route the metres are told of")
                #expect(moment.map.line == line)
            } else {
                #expect(moment.map.remaining == nil && moment.map.dasher == nil)
            }
        }
        let planned = try #require(moments.first?.map)
        #expect(planned.line == planned.planned && planned.planned.count >= 2 && planned.store == DriveTrackerTests.store)
        #expect(moments.last?.map.line.isEmpty == true && moments.last?.map.state == .complete)
        let lefts = moments.compactMap(\.map.remainingMeters)
        #expect(lefts.count > 10 && lefts.last! < 0.1 * lefts.first!)
    }
}
