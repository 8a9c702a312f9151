import BaseMap
import Foundation
import GeoCore
import Routing

/// The real street network (the NYC street sources, both boroughs), built once for every test.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var sourceDirectory: URL {
        if let explicit = ProcessInfo.processInfo.environment["SNAPMAP_NYC_DATA"] { return URL(fileURLWithPath: explicit) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/nyc")
    }
    static let speedsFile = packageRoot.appendingPathComponent("Data/routing/speeds.json")

    static let router: Result<Router, any Error> = Result {
        let streets = try BaseMapImporter.importStreets(from: sourceDirectory)
        return Router(graph: RoadGraph(lines: StreetLine.lines(of: streets), speeds: try StreetSpeeds(contentsOf: speedsFile)))
    }

    /// Brooklyn's extent (the borough is land inside it; points in the water find no street and are skipped).
    static let brooklyn = (lat: 40.571...40.739, lon: -74.042 ... -73.855)

    static func randomCoordinate(_ random: inout SplitMix64, lat: ClosedRange<Double> = brooklyn.lat,
                                 lon: ClosedRange<Double> = brooklyn.lon) -> Coordinate {
        let latitude = lat.lowerBound + random.unit() * (lat.upperBound - lat.lowerBound)
        let longitude = lon.lowerBound + random.unit() * (lon.upperBound - lon.lowerBound)
        return try! Coordinate(lat: latitude, lon: longitude)
    }

    /// A route's seconds recomputed from its arcs and the cheaper way onto and off them along the end edges,
    /// independently of any search; nil for a route that drives no whole edge.
    static func recomputedDuration(_ route: Route, graph: RoadGraph, from start: RoadPosition, to end: RoadPosition) -> Double? {
        guard let first = route.arcs.first, let last = route.arcs.last else { return nil }
        func seconds(_ edge: Int, _ metres: Double) -> Double { graph.edgeTime[edge] * metres / graph.edgeLength[edge] }
        let (a, b) = (start.edge, end.edge)
        var leave = Double.infinity, arrive = Double.infinity
        if graph.arcTail(first) == graph.edgeTo[a] { leave = seconds(a, graph.edgeLength[a] - start.offset) }
        if graph.arcTail(first) == graph.edgeFrom[a] { leave = min(leave, seconds(a, start.offset)) }
        if graph.arcHead[last] == graph.edgeFrom[b] { arrive = seconds(b, end.offset) }
        if graph.arcHead[last] == graph.edgeTo[b] { arrive = min(arrive, seconds(b, graph.edgeLength[b] - end.offset)) }
        return leave + route.arcs.reduce(0) { $0 + graph.arcWeight[$1] } + arrive
    }
}
