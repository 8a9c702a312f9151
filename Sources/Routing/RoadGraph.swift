import BaseMap
import Foundation
import GeoCore

/// Which ways a street may be driven along its drawn direction. The NYC sources carry no `oneway` tags, so every
/// street imported today is `.both`; the graph, the hierarchy and the searches all work on directed arcs.
public enum TravelDirection: UInt8, Sendable {
    case both = 3, forward = 1, backward = 2

    var allowsForward: Bool { rawValue & 1 != 0 }
    var allowsBackward: Bool { rawValue & 2 != 0 }
}

/// One drivable street line, in mercator metres, as the sources give it.
public struct StreetLine: Sendable {
    public var points: [MercatorPoint]
    public var streetClass: StreetClass
    public var direction: TravelDirection
    /// The street's name; empty when it has none.
    public var name: String

    public init(points: [MercatorPoint], streetClass: StreetClass, direction: TravelDirection = .both, name: String = "") {
        self.points = points
        self.streetClass = streetClass
        self.direction = direction
        self.name = name
    }

    /// Every part of the base map's street table as a two-way line (the sources have no one-way data).
    public static func lines(of streets: FeatureTable) -> [StreetLine] {
        var lines: [StreetLine] = []
        for feature in 0..<streets.count {
            let streetClass = StreetClass(rank: streets.classes[feature]) ?? .residential
            for part in streets.parts(of: feature) {
                let points = streets.points(ofPart: part).map { MercatorPoint(x: streets.xs[$0], y: streets.ys[$0]) }
                lines.append(StreetLine(points: points, streetClass: streetClass, name: streets.names[feature]))
            }
        }
        return lines
    }
}

/// The street network as a routable graph in flat arrays (RoutingKit's CSR shape). Junctions are the vertices
/// that two lines share (or a line shares with itself) and every line's ends; an edge is the piece of a line
/// between two junctions, keeping its geometry. Arcs are the directed ways an edge may be driven, weighted by
/// travel time at its class's speed. Lengths are on the ground, on the WGS 84 ellipsoid (`groundDistance`).
public struct RoadGraph: Sendable {
    public let junctions: [MercatorPoint]
    public let edgeFrom: [Int32]
    public let edgeTo: [Int32]
    public let edgeClass: [StreetClass]
    public let edgeDirection: [TravelDirection]
    /// The name of each edge's street is `streetNames[edgeStreet[e]]` (empty when it has none).
    public let edgeStreet: [Int32]
    public let streetNames: [String]
    /// Ground length of each edge in metres.
    public let edgeLength: [Double]
    /// Travel time of each edge in seconds.
    public let edgeTime: [Double]
    /// The edge's points are `points[geometryStart[e]..<geometryStart[e + 1]]`, from its `from` junction to its `to`.
    public let points: [MercatorPoint]
    public let geometryStart: [Int]
    /// Ground metres from the edge's start to each of its points.
    public let along: [Double]
    /// Outgoing arcs of node v are `firstOut[v]..<firstOut[v + 1]`.
    public let firstOut: [Int32]
    public let arcHead: [Int32]
    public let arcEdge: [Int32]
    /// Whether the arc drives its edge against the edge's drawn direction.
    public let arcReversed: [Bool]
    public let arcWeight: [Double]

    /// How many junctions and edges the graph has.
    public var nodeCount: Int { junctions.count }
    public var edgeCount: Int { edgeFrom.count }

    /// Builds the graph from street lines; consecutive repeated points are dropped, and pieces that start and end
    /// at one junction with no length (degenerate loops) are left out.
    public init(lines: [StreetLine], speeds: StreetSpeeds) {
        var uses: [MercatorPoint: Int] = [:]
        for line in lines where line.points.count >= 2 {
            for (index, point) in line.points.enumerated() {
                uses[point, default: 0] += (index == 0 || index == line.points.count - 1) ? 2 : 1
            }
        }
        var nodeOf: [MercatorPoint: Int32] = [:]
        var junctions: [MercatorPoint] = []
        func node(_ point: MercatorPoint) -> Int32 {
            if let id = nodeOf[point] { return id }
            let id = Int32(junctions.count)
            nodeOf[point] = id
            junctions.append(point)
            return id
        }
        var from: [Int32] = [], to: [Int32] = [], classes: [StreetClass] = [], directions: [TravelDirection] = []
        var streetOf: [String: Int32] = [:], names: [String] = [], streets: [Int32] = []
        var lengths: [Double] = [], times: [Double] = [], points: [MercatorPoint] = [], starts: [Int] = [0], along: [Double] = []
        for line in lines {
            let street = streetOf[line.name] ?? Int32(names.count)
            if street == Int32(names.count) {
                streetOf[line.name] = street
                names.append(line.name)
            }
            var piece: [MercatorPoint] = []
            for point in line.points where piece.last != point {
                piece.append(point)
                guard piece.count >= 2, uses[point, default: 0] >= 2 else { continue }
                var metres = [0.0]
                for index in 1..<piece.count { metres.append(metres[index - 1] + Self.groundDistance(piece[index - 1], piece[index])) }
                let (a, b) = (node(piece[0]), node(point))
                if a != b || metres.last! > 0 {
                    from.append(a); to.append(b); classes.append(line.streetClass); directions.append(line.direction); streets.append(street)
                    lengths.append(metres.last!); times.append(metres.last! / speeds.speed(of: line.streetClass))
                    points += piece; along += metres; starts.append(points.count)
                }
                piece = [point]
            }
        }
        var outCount = [Int32](repeating: 0, count: junctions.count + 1)
        for edge in from.indices {
            if directions[edge].allowsForward { outCount[Int(from[edge]) + 1] += 1 }
            if directions[edge].allowsBackward { outCount[Int(to[edge]) + 1] += 1 }
        }
        for index in 1..<outCount.count { outCount[index] += outCount[index - 1] }
        var next = outCount
        let arcCount = Int(outCount.last!)
        var heads = [Int32](repeating: 0, count: arcCount), edges = [Int32](repeating: 0, count: arcCount)
        var reversed = [Bool](repeating: false, count: arcCount), weights = [Double](repeating: 0, count: arcCount)
        for edge in from.indices {
            for (tail, head, isReversed) in [(from[edge], to[edge], false), (to[edge], from[edge], true)]
            where isReversed ? directions[edge].allowsBackward : directions[edge].allowsForward {
                let slot = Int(next[Int(tail)])
                next[Int(tail)] += 1
                heads[slot] = head; edges[slot] = Int32(edge); reversed[slot] = isReversed; weights[slot] = times[edge]
            }
        }
        self.junctions = junctions
        edgeFrom = from; edgeTo = to; edgeClass = classes; edgeDirection = directions; edgeStreet = streets; streetNames = names
        edgeLength = lengths; edgeTime = times; self.points = points; geometryStart = starts; self.along = along
        firstOut = outCount; arcHead = heads; arcEdge = edges; arcReversed = reversed; arcWeight = weights
    }

    /// The junction arc `arc` leaves from.
    public func arcTail(_ arc: Int) -> Int32 {
        arcReversed[arc] ? edgeTo[Int(arcEdge[arc])] : edgeFrom[Int(arcEdge[arc])]
    }

    /// The points of edge `edge`, from its `from` junction to its `to` junction.
    public func geometry(of edge: Int) -> ArraySlice<MercatorPoint> { points[geometryStart[edge]..<geometryStart[edge + 1]] }

    /// Ground metres between two nearby mercator points on the WGS 84 ellipsoid: the north and east steps scaled
    /// by the meridian and prime-vertical radii at their mean latitude (within a millimetre of the geodesic over
    /// the few hundred metres of a street segment).
    public static func groundDistance(_ a: MercatorPoint, _ b: MercatorPoint) -> Double {
        let radius = WebMercator.earthRadius, flattening = 1 / 298.257223563
        let eccentricitySquared = flattening * (2 - flattening)
        let (lat1, lat2) = (atan(sinh(a.y / radius)), atan(sinh(b.y / radius)))
        let middle = (lat1 + lat2) / 2, sine = sin(middle)
        let w = 1 - eccentricitySquared * sine * sine
        let primeVertical = radius / w.squareRoot(), meridian = primeVertical * (1 - eccentricitySquared) / w
        let north = (lat2 - lat1) * meridian, east = (b.x - a.x) / radius * primeVertical * cos(middle)
        return (north * north + east * east).squareRoot()
    }

    /// About how many ground metres a mercator metre is at mercator y (the sphere's cos(lat)), for search radii.
    public static func groundScale(atY y: Double) -> Double { 1 / cosh(y / WebMercator.earthRadius) }
}
