import Foundation
import GeoCore
import Routing
import Testing

/// The contraction hierarchy against plain Dijkstra on the real street network, and the routes it gives.
@Suite struct RouterTests {
    @Test func theHierarchyFindsDijkstrasTimeOnRandomPairsAcrossBrooklyn() throws {
        let router = try Fixtures.router.get()
        var random = SplitMix64(seed: 30)
        var search = RouteSearch(nodeCount: router.graph.nodeCount)
        var compared = 0, drove = 0
        while compared < 120 {
            let from = Fixtures.randomCoordinate(&random), to = Fixtures.randomCoordinate(&random)
            guard let start = try? router.position(of: from, field: "from"), let end = try? router.position(of: to, field: "to") else { continue }
            compared += 1
            let fast = router.route(from: start, to: end, search: &search)
            let reference = router.referenceRoute(from: start, to: end)
            #expect((fast == nil) == (reference == nil), "\(from) → \(to)")
            guard let fast, let reference else { continue }
            #expect(abs(fast.duration - reference.duration) <= 1e-9 * reference.duration, "\(from) → \(to)")
            #expect(abs(fast.length - reference.length) <= 1e-9 * reference.length, "\(from) → \(to)")
            for (arc, next) in zip(fast.arcs, fast.arcs.dropFirst()) { #expect(router.graph.arcHead[arc] == router.graph.arcTail(next)) }
            if let recomputed = Fixtures.recomputedDuration(fast, graph: router.graph, from: start, to: end) {
                #expect(abs(recomputed - fast.duration) <= 1e-9 * fast.duration)
                drove += 1
            }
        }
        #expect(drove >= 80, "most pairs are more than a street apart (the others: across the East River, which no street crosses)")
    }

    /// The rest of a route from a point on it, against Dijkstra from that point: the same time and length, a line
    /// from the point to the route's end; a point off the route has none.
    @Test func theRestOfARouteFromAPointOnItIsAFastestDriveFromThere() throws {
        let router = try Fixtures.router.get()
        var random = SplitMix64(seed: 33)
        var search = RouteSearch(nodeCount: router.graph.nodeCount)
        var compared = 0
        while compared < 60 {
            guard let start = try? router.position(of: Fixtures.randomCoordinate(&random), field: "from"),
                  let end = try? router.position(of: Fixtures.randomCoordinate(&random), field: "to"),
                  let route = router.route(from: start, to: end, search: &search), route.length > 0 else { continue }
            compared += 1
            let (leg, offset) = route.position(at: random.unit() * route.length)
            let point = try #require(Self.position(router, leg.edge, at: offset))
            let rest = try #require(router.rest(of: route, from: point))
            let reference = try #require(router.referenceRoute(from: point, to: end))
            #expect(abs(rest.duration - reference.duration) <= 1e-9 * max(1, reference.duration))
            #expect(abs(rest.length - reference.length) <= 1e-9 * max(1, reference.length))
            #expect(rest.points.first == point.point && rest.points.last == route.points.last)
            #expect(rest.legs.last?.edge == route.legs.last?.edge && rest.legs.last?.to == route.legs.last?.to)
            // Its line measures its length, and so does the line of the rest of the rest (the tracker's, fix after fix);
            // to a centimetre, as a point inside a segment is placed linearly in mercator metres.
            let (later, laterOffset) = rest.position(at: random.unit() * rest.length)
            let laterPoint = try #require(Self.position(router, later.edge, at: laterOffset))
            let again = try #require(router.rest(of: rest, from: laterPoint))
            for piece in [rest, again] {
                let line = piece.coordinates
                let measured = zip(line, line.dropFirst()).reduce(0) { $0 + Geodesic.wgs84.distance($1.0, $1.1) }
                #expect(abs(measured - piece.length) <= 1e-6 * piece.length + 0.01, "line \(measured) against length \(piece.length)")
            }
            let off = try #require((0..<router.graph.edgeCount).first { edge in !route.legs.contains { $0.edge == edge } })
            let offPoint = try #require(Self.position(router, off, at: 0))
            #expect(router.rest(of: route, from: offPoint) == nil)
        }
    }

    /// The road position `offset` metres along `edge`.
    private static func position(_ router: Router, _ edge: Int, at offset: Double) -> RoadPosition? {
        router.index.candidates(near: router.point(edge, at: offset), radius: 1).first { $0.edge == edge }
    }

    @Test func aRoutesLineRunsFromItsStartToItsEndAndMeasuresItsLength() throws {
        let router = try Fixtures.router.get()
        let home = try Coordinate(lat: 40.67015, lon: -73.98549)
        let store = try Coordinate(lat: 40.6795, lon: -73.9810)
        let route = try router.route(from: store, to: home)
        let start = try router.position(of: store, field: "from"), end = try router.position(of: home, field: "to")
        #expect(route.points.first == start.point)
        #expect(route.points.last == end.point)
        let geodesic = zip(route.coordinates, route.coordinates.dropFirst()).reduce(0) { $0 + Geodesic.wgs84.distance($1.0, $1.1) }
        #expect(abs(route.length - geodesic) <= 1e-6 * geodesic, "length \(route.length) against the geodesic sum \(geodesic)")
        let straight = Geodesic.wgs84.distance(store, home)
        #expect(route.length >= straight && route.length <= 2 * straight)
    }

    @Test func anEndFarFromEveryStreetIsRefusedByName() throws {
        let router = try Fixtures.router.get()
        let harbour = try Coordinate(lat: 40.60, lon: -74.05)
        let home = try Coordinate(lat: 40.67015, lon: -73.98549)
        #expect(#expect(throws: BadField.self) { try router.route(from: harbour, to: home) }?.field == "from")
        do {
            _ = try router.route(from: home, to: harbour)
            Issue.record("a destination in the harbour was routed to")
        } catch {
            #expect(error.field == "to")
            #expect(error.message.contains("500 m"))
        }
    }

    @Test func theSameRouteGivesTheSameBytes() throws {
        let router = try Fixtures.router.get()
        let from = try Coordinate(lat: 40.7081, lon: -73.9571), to = try Coordinate(lat: 40.6892, lon: -73.9442)
        let json = try router.route(from: from, to: to).geoJSON()
        #expect(json == (try router.route(from: from, to: to).geoJSON()))
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let geometry = object?["geometry"] as? [String: Any], properties = object?["properties"] as? [String: Any]
        #expect(object?["type"] as? String == "Feature")
        #expect(geometry?["type"] as? String == "LineString")
        #expect((geometry?["coordinates"] as? [[Double]])?.first?.count == 2)
        #expect((properties?["lengthMeters"] as? Double ?? 0) > 0)
        #expect((properties?["durationSeconds"] as? Double ?? 0) > 0)
    }
}
