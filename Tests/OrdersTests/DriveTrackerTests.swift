import BaseMap
import Foundation
import GeoCore
import Orders
@testable import Routing
import Testing

/// The customer's view of a drive, fed a simulated Dasher's fixes one at a time, against where the Dasher truly was.
@Suite struct DriveTrackerTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let router: Result<Router, any Error> = Result {
        let sources = ProcessInfo.processInfo.environment["SNAPMAP_NYC_DATA"].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/nyc")
        let speeds = try StreetSpeeds(contentsOf: packageRoot.appendingPathComponent("Data/routing/speeds.json"))
        return Router(graph: RoadGraph(lines: StreetLine.lines(of: try BaseMapImporter.importStreets(from: sources)), speeds: speeds))
    }
    /// Lucia's in Park Slope and the seed's home (`Data/doordash/routes.json`).
    static let store = try! Coordinate(lat: 40.6795, lon: -73.9810)
    static let home = try! Coordinate(lat: 40.67015, lon: -73.98549)

    /// Feeds every fix of `drive` to a tracker planned store → home; each fix's tracker state and the truth.
    static func follow(_ drive: SimulatedDrive, router: Router) throws -> [(tracker: DriveTracker, truth: SimulatedDrive.Truth, time: Double)] {
        var search = RouteSearch(nodeCount: router.graph.nodeCount)
        var matcher = MapMatcher(router: router)
        var tracker = try #require(DriveTracker(router: router, from: router.position(of: store, field: "from"),
                                                to: router.position(of: home, field: "to"), search: &search))
        var states: [(DriveTracker, SimulatedDrive.Truth, Double)] = []
        for (fix, truth) in zip(drive.fixes, drive.truth) {
            _ = tracker.add(fix, matcher: &matcher, search: &search)
            states.append((tracker, truth, fix.time))
        }
        return states
    }

    @Test func theRemainingRouteShortensAndTheDriveTurnsNearbyAtItsLastQuarter() throws {
        let router = try Self.router.get()
        var search = RouteSearch(nodeCount: router.graph.nodeCount)
        let route = try #require(router.route(from: router.position(of: Self.store, field: "from"), to: router.position(of: Self.home, field: "to"), search: &search))
        var random = SplitMix64(seed: 25)
        let drive = SimulatedDrive(route: route, router: router, interval: 5, accuracy: 12, jumpChance: 0, random: &random)
        let states = try Self.follow(drive, router: router)
        #expect(states.count >= 20)
        let close = states.filter { abs($0.tracker.remaining.length - $0.truth.remaining) <= 40 }
        #expect(close.count >= states.count * 9 / 10, "the remaining route is within 40 m of the truth's at \(close.count) of \(states.count) fixes")
        for state in states {
            #expect(state.tracker.remaining.points.first == state.tracker.position.point, "the remaining route starts where the Dasher is shown")
            #expect(state.tracker.remaining.points.last == state.tracker.home.point)
        }
        let nearbyWrong = states.filter { $0.tracker.isNearby != ($0.truth.remaining <= 0.25 * route.length) && abs($0.truth.remaining - 0.25 * route.length) > 40 }
        #expect(nearbyWrong.isEmpty, "nearby exactly when a quarter of the drive is left, but within 40 m of the line")
        #expect(states.last?.tracker.isNearby == true && states.first?.tracker.isNearby == false)
    }

    @Test func aDasherWhoLeavesThePlannedRouteIsReRoutedFromWhereTheyAre() throws {
        let router = try Self.router.get()
        var search = RouteSearch(nodeCount: router.graph.nodeCount)
        let (store, home) = (try router.position(of: Self.store, field: "from"), try router.position(of: Self.home, field: "to"))
        let detour = try router.position(of: Coordinate(lat: 40.6745, lon: -73.9700), field: "via")
        let first = try #require(router.route(from: store, to: detour, search: &search))
        let second = try #require(router.route(from: detour, to: home, search: &search))
        let planned = try #require(router.route(from: store, to: home, search: &search))
        #expect(Set(first.legs.map(\.edge)).subtracting(planned.legs.map(\.edge)).count > 3, "the detour leaves the planned route")
        var random = SplitMix64(seed: 26)
        let leg1 = SimulatedDrive(route: first, router: router, interval: 5, accuracy: 8, jumpChance: 0, random: &random)
        var leg2 = SimulatedDrive(route: second, router: router, interval: 5, accuracy: 8, jumpChance: 0, random: &random)
        let offset = (leg1.fixes.last?.time ?? 0) + 5
        leg2.fixes = leg2.fixes.map { TraceFix(point: $0.point, time: $0.time + offset, accuracy: $0.accuracy) }
        var joined = leg1
        joined.fixes += leg2.fixes
        joined.truth = leg1.truth.map { SimulatedDrive.Truth(edge: $0.edge, point: $0.point, remaining: $0.remaining + second.length) } + leg2.truth
        let states = try Self.follow(joined, router: router)
        let off = states.prefix(leg1.fixes.count).filter { !Set(planned.legs.map(\.edge)).contains($0.truth.edge) }
        #expect(off.count >= 3)
        // The reference: the fastest drive home from where the Dasher truly was.
        let rerouted = try off.filter { state in
            let truly = try #require(router.index.candidates(near: state.truth.point, radius: 1).first { $0.edge == state.truth.edge })
            let fresh = try #require(router.route(from: truly, to: home, search: &search))
            return abs(state.tracker.remaining.length - fresh.length) <= 40
        }
        #expect(rerouted.count >= off.count * 9 / 10, "off the plan, the remaining route is the drive from where they are")
        #expect(states.contains { $0.tracker.remainingShare > 1 }, "a detour can leave more than the planned drive")
    }

    /// Measured, with the README's figures: a Dasher 40% slower than the street speeds, ETA error in the drive's
    /// second half with the learned pace and with the street speeds alone.
    @Test func theETALearnsFromTheDashersRecentSpeed() throws {
        let router = try Self.router.get()
        var search = RouteSearch(nodeCount: router.graph.nodeCount)
        let route = try #require(router.route(from: router.position(of: Self.store, field: "from"), to: router.position(of: Self.home, field: "to"), search: &search))
        var random = SplitMix64(seed: 27)
        let drive = SimulatedDrive(route: route, router: router, interval: 5, accuracy: 10, jumpChance: 0, pace: 1.4, random: &random)
        let arrival = route.duration * 1.4
        let states = try Self.follow(drive, router: router)
        let secondHalf = states.suffix(states.count / 2)
        let learned = secondHalf.map { abs($0.time + $0.tracker.etaSeconds - arrival) }.reduce(0, +) / Double(secondHalf.count)
        let streetSpeeds = secondHalf.map { abs($0.time + $0.tracker.remaining.duration - arrival) }.reduce(0, +) / Double(secondHalf.count)
        #expect(learned < 0.5 * streetSpeeds, "mean ETA error \(learned) s learned against \(streetSpeeds) s at street speeds")
        #expect(secondHalf.allSatisfy { abs($0.tracker.pace - 1.4) < 0.4 }, "the pace found is the Dasher's")
    }
}
