/// Closes the pieces of rings cut by a tile's square into rings again, along the square's edge: from the end of
/// each piece clockwise (on screen) round the edge, through the corners passed, to the start of the next. With
/// pieces that keep their area on the right (exteriors clockwise, holes anticlockwise), the rings made are
/// the area inside the square, valid where the source is, with no edges doubled back along the square's sides
/// (as Sutherland–Hodgman leaves them). Reversed pieces give the complement: water from land.
struct EdgeStitcher {
    let low: Int32
    let high: Int32

    private var side: Int64 { Int64(high) - Int64(low) }
    private var perimeter: Int64 { 4 * side }

    /// The corners clockwise from the top left, at positions 0, side, 2·side and 3·side along the edge.
    private var corners: [TilePoint] {
        [TilePoint(x: low, y: low), TilePoint(x: high, y: low), TilePoint(x: high, y: high), TilePoint(x: low, y: high)]
    }

    /// How far clockwise round the edge from the top-left corner a point on it is.
    func position(_ point: TilePoint) -> Int64 {
        let (x, y) = (Int64(point.x), Int64(point.y))
        if point.y == low { return x - Int64(low) }
        if point.x == high { return side + y - Int64(low) }
        if point.y == high { return 2 * side + Int64(high) - x }
        return (3 * side + Int64(high) - y) % perimeter
    }

    /// The rings the pieces make (each piece starts and ends on the edge).
    func rings(_ pieces: [[TilePoint]]) -> [[TilePoint]] {
        let starts = pieces.map { position($0[0]) }
        let ends = pieces.map { position($0[$0.count - 1]) }
        var used = [Bool](repeating: false, count: pieces.count)
        var rings: [[TilePoint]] = []
        for first in pieces.indices where !used[first] {
            var ring: [TilePoint] = []
            var current = first
            while true {
                used[current] = true
                ring += pieces[current]
                var next = first, nearest = (starts[first] - ends[current] + perimeter) % perimeter
                for candidate in pieces.indices where !used[candidate] {
                    let distance = (starts[candidate] - ends[current] + perimeter) % perimeter
                    if distance < nearest { (next, nearest) = (candidate, distance) }
                }
                let passed = corners.indices.compactMap { index -> (along: Int64, corner: TilePoint)? in
                    let along = (Int64(index) * side - ends[current] + perimeter) % perimeter
                    return along > 0 && along < nearest ? (along, corners[index]) : nil
                }
                ring += passed.sorted { $0.along < $1.along }.map(\.corner)
                if next == first { break }
                current = next
            }
            let closed = Self.withoutRepeats(ring)
            if closed.count >= 3, TilePath.doubleArea(closed) > 0 { rings.append(closed) }
        }
        return rings
    }

    /// Consecutive repeats removed, and the first point when the ring ends on it.
    static func withoutRepeats(_ points: [TilePoint]) -> [TilePoint] {
        var result: [TilePoint] = []
        result.reserveCapacity(points.count)
        for point in points where result.last != point { result.append(point) }
        while result.count > 1, result.first == result.last { result.removeLast() }
        return result
    }
}
