import Foundation
import GeoCore

/// A drive on the street network: its line from start to end in mercator metres, its ground length, its travel
/// time at the speeds of its streets, and the graph arcs it drives whole.
public struct Route: Sendable, Equatable {
    public let points: [MercatorPoint]
    public let length: Double
    public let duration: Double
    public let arcs: [Int]
    /// The pieces of edges driven, in order: the start's edge from its offset, whole edges, the end's edge to its offset.
    public let legs: [RouteLeg]
    /// The index in `points` of each leg's first point (a leg ends on the next one's first).
    let legStarts: [Int]

    /// The leg driven at `distance` ground metres from the start (clamped to the route), and the offset on its edge.
    public func position(at distance: Double) -> (leg: RouteLeg, offset: Double) {
        var remaining = max(0, distance)
        for leg in legs {
            if remaining <= leg.length || leg == legs.last { return (leg, leg.offset(after: min(remaining, leg.length))) }
            remaining -= leg.length
        }
        return (RouteLeg(edge: 0, from: 0, to: 0), 0)
    }

    /// The line in WGS 84.
    public var coordinates: [Coordinate] { points.map(WebMercator.unprojectUnchecked) }

    /// A GeoJSON Feature: a LineString (lon, lat to 1e-7°) with `lengthMeters` and `durationSeconds` (to 0.1),
    /// keys sorted, so the same route gives the same bytes.
    public func geoJSON() -> String {
        let line = coordinates.map { "[\(Self.fixed($0.lon, 7)),\(Self.fixed($0.lat, 7))]" }.joined(separator: ",")
        return "{\"geometry\":{\"coordinates\":[\(line)],\"type\":\"LineString\"},"
            + "\"properties\":{\"durationSeconds\":\(Self.fixed(duration, 1)),\"lengthMeters\":\(Self.fixed(length, 1))},\"type\":\"Feature\"}"
    }

    private static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}

/// A piece of one edge driven from offset `from` to offset `to` (ground metres from the edge's start; `to < from`
/// when it is driven against the edge's drawn direction).
public struct RouteLeg: Sendable, Equatable {
    public let edge: Int
    public let from: Double
    public let to: Double

    public init(edge: Int, from: Double, to: Double) {
        self.edge = edge
        self.from = from
        self.to = to
    }

    public var length: Double { abs(to - from) }

    /// The offset on the edge after driving `metres` of this leg.
    public func offset(after metres: Double) -> Double { to >= from ? from + metres : from - metres }
}
