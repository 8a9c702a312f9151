import GeoCore

/// A place on the road network: a point on one edge, `offset` ground metres from the edge's `from` junction.
public struct RoadPosition: Sendable, Equatable {
    public let edge: Int
    public let offset: Double
    public let point: MercatorPoint
    /// Ground metres from the position asked for to this point on the road.
    public let distance: Double
}

/// A uniform grid over the edges' segments, answering the road positions near a point (snapping a store or a
/// home to its street; the candidates of a GPS fix for map matching).
public struct EdgeIndex: Sendable {
    public static let cellSize = 250.0
    private let graph: RoadGraph
    private let minX: Double, minY: Double
    private let columns: Int, rows: Int
    private let cellStart: [Int32]
    /// Segment ids (the index of a segment's first point in `graph.points`) by cell.
    private let segments: [Int32]
    private let segmentEdge: [Int32]

    /// Indexes every segment of every edge of `graph`.
    public init(graph: RoadGraph) {
        self.graph = graph
        let xs = graph.points.map(\.x), ys = graph.points.map(\.y)
        minX = (xs.min() ?? 0) - 1
        minY = (ys.min() ?? 0) - 1
        columns = max(1, Int((((xs.max() ?? 0) + 1 - minX) / Self.cellSize).rounded(.up)))
        rows = max(1, Int((((ys.max() ?? 0) + 1 - minY) / Self.cellSize).rounded(.up)))
        var edgeOfPoint = [Int32](repeating: -1, count: graph.points.count)
        for edge in 0..<graph.edgeCount {
            for index in graph.geometryStart[edge]..<(graph.geometryStart[edge + 1] - 1) { edgeOfPoint[index] = Int32(edge) }
        }
        var cells: [[Int32]] = Array(repeating: [], count: columns * rows)
        for index in edgeOfPoint.indices where edgeOfPoint[index] >= 0 {
            let a = graph.points[index], b = graph.points[index + 1]
            let (c0, r0) = Self.cell(min(a.x, b.x) - minX, min(a.y, b.y) - minY)
            let (c1, r1) = Self.cell(max(a.x, b.x) - minX, max(a.y, b.y) - minY)
            for row in r0...r1 { for column in c0...c1 { cells[row * columns + column].append(Int32(index)) } }
        }
        var starts: [Int32] = [0]
        for cell in cells { starts.append(starts.last! + Int32(cell.count)) }
        cellStart = starts
        segments = cells.flatMap { $0 }
        segmentEdge = edgeOfPoint
    }

    private static func cell(_ x: Double, _ y: Double) -> (Int, Int) { (Int(x / cellSize), Int(y / cellSize)) }

    /// The nearest position on each edge within `radius` ground metres of `point`, nearest first (ties by edge).
    public func candidates(near point: MercatorPoint, radius: Double, where accept: (Int) -> Bool = { _ in true }) -> [RoadPosition] {
        let scale = RoadGraph.groundScale(atY: point.y)
        let reach = radius / scale
        let (c0, r0) = Self.cell(max(0, point.x - reach - minX), max(0, point.y - reach - minY))
        let (c1, r1) = Self.cell(point.x + reach - minX, point.y + reach - minY)
        guard c0 < columns, r0 < rows, c1 >= 0, r1 >= 0 else { return [] }
        var best: [Int: RoadPosition] = [:]
        for row in r0...min(r1, rows - 1) {
            for column in c0...min(c1, columns - 1) {
                let cell = row * columns + column
                for slot in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                    let index = Int(segments[slot]), edge = Int(segmentEdge[index])
                    guard accept(edge) else { continue }
                    let a = graph.points[index], b = graph.points[index + 1]
                    let dx = b.x - a.x, dy = b.y - a.y
                    let t = max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / (dx * dx + dy * dy)))
                    let foot = MercatorPoint(x: a.x + t * dx, y: a.y + t * dy)
                    let distance = RoadGraph.groundDistance(point, foot)
                    guard distance <= radius, distance < best[edge]?.distance ?? .infinity else { continue }
                    let offset = graph.along[index] + t * (graph.along[index + 1] - graph.along[index])
                    best[edge] = RoadPosition(edge: edge, offset: offset, point: foot, distance: distance)
                }
            }
        }
        return best.values.sorted { ($0.distance, $0.edge) < ($1.distance, $1.edge) }
    }

    /// The nearest road position within `radius` metres accepted by `accept`, or nil.
    public func nearest(to point: MercatorPoint, radius: Double, where accept: (Int) -> Bool = { _ in true }) -> RoadPosition? {
        candidates(near: point, radius: radius, where: accept).first
    }
}
