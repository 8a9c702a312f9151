import Foundation
import GeoCore

/// The named waters of `Data/places/water-names.json`: a seed point in each and how far around it to look.
struct WaterNames: Decodable {
    struct Water: Decodable {
        let name: String
        let lat: Double
        let lon: Double
        let reachMeters: Double
    }

    let waters: [Water]

    static let reachRange = 100.0...10_000

    static func load(_ url: URL) throws(DataFileError) -> [Water] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw DataFileError(file: url.path, message: "cannot read the water names file") }
        let waters: [Water]
        do {
            waters = try JSONDecoder().decode(WaterNames.self, from: data).waters
        } catch {
            let failure = DecodingFailure(error)
            throw DataFileError(file: url.path, path: failure.path, message: failure.message)
        }
        for (index, water) in waters.enumerated() {
            guard (try? Coordinate(lat: water.lat, lon: water.lon)) != nil else {
                throw DataFileError(file: url.path, path: "waters[\(index)]", message: "lat must be within −85.05…85.05 and lon within −180…180")
            }
            guard reachRange.contains(water.reachMeters) else {
                throw DataFileError(file: url.path, path: "waters[\(index)].reachMeters",
                                   message: "\(water.reachMeters) is out of range: allowed \(reachRange.lowerBound) … \(reachRange.upperBound)")
            }
        }
        return waters
    }
}

/// A named water's shape read from the shoreline: the water cells of a grid around its seed that the seed
/// reaches without crossing land; its label goes at the cell farthest from land (near the seed), written along
/// the cells' long axis (their principal component), or, where a name of its size would reach land there, at one
/// of a few other deep cells, along the water's axis around each.
struct WaterShape {
    /// Grid cells of this many mercator metres.
    static let cell = 40.0
    /// Places kept for a water's name, its first included.
    static let spotCount = 6

    /// The first spot is the cell farthest from land near the seed, along the whole water's axis.
    let spots: [WaterSpot]
    /// The area of the water reached, square mercator metres.
    let area: Double

    var anchor: MercatorPoint { spots[0].anchor }
    /// A unit vector along the long axis, pointing east (or north when the axis is north–south).
    var axis: (x: Double, y: Double) { spots[0].axis }

    static func read(_ water: WaterNames.Water, land: BaseMapStore, file: String) throws(DataFileError) -> WaterShape {
        let seed = WebMercator.projectUnchecked(lat: water.lat, lon: water.lon)
        let reach = water.reachMeters / cos(water.lat * .pi / 180)
        let side = Int((2 * reach / cell).rounded(.up)) | 1
        let centre = side / 2
        func point(_ column: Int, _ row: Int) -> MercatorPoint {
            MercatorPoint(x: seed.x + Double(column - centre) * cell, y: seed.y + Double(row - centre) * cell)
        }
        let wet = waterMask(land: land, side: side, point: point)
        guard wet[centre * side + centre] else {
            throw DataFileError(file: file, message: "the seed of \"\(water.name)\" (\(water.lat), \(water.lon)) is on land; move it into the water")
        }
        // The water the seed reaches (4-neighbours), and each cell's distance in cells to the nearest land.
        var reached = [Bool](repeating: false, count: side * side)
        var queue = [centre * side + centre]
        reached[queue[0]] = true
        var head = 0
        while head < queue.count {
            let index = queue[head]
            head += 1
            for next in neighbours(index, side: side) where wet[next] && !reached[next] {
                reached[next] = true
                queue.append(next)
            }
        }
        var distance = [Int](repeating: Int.max, count: side * side)
        var frontier = (0..<(side * side)).filter { !wet[$0] }
        for index in frontier { distance[index] = 0 }
        head = 0
        while head < frontier.count {
            let index = frontier[head]
            head += 1
            for next in neighbours(index, side: side) where distance[next] == Int.max {
                distance[next] = distance[index] + 1
                frontier.append(next)
            }
        }
        let cells = queue
        let near = cells.filter { index in
            let (dx, dy) = (index % side - centre, index / side - centre)
            return dx * dx + dy * dy <= centre * centre / 4
        }
        let best = near.max { a, b in (distance[a], -abs(a - centre * side - centre)) < (distance[b], -abs(b - centre * side - centre)) } ?? queue[0]
        // Other spots: the deepest cells, each at least a quarter of the reach from those before.
        var picked = [best]
        let spacing = Double(centre) / 4
        for index in cells.sorted(by: { distance[$0] != distance[$1] ? distance[$0] > distance[$1] : $0 < $1 }) where picked.count < spotCount {
            guard distance[index] >= 2 else { break }
            if picked.allSatisfy({ hypot(Double($0 % side - index % side), Double($0 / side - index / side)) >= spacing }) { picked.append(index) }
        }
        let edges = shorelineEdges(land, around: seed, within: 2 * reach)
        let spots = picked.enumerated().map { order, index in
            let anchor = point(index % side, index / side)
            // Around each other spot the water's own axis: the cells within a quarter of the reach.
            let local = order == 0 ? cells : cells.filter { hypot(Double($0 % side - index % side), Double($0 / side - index / side)) <= spacing }
            let axis = principalAxis(local.map { point($0 % side, $0 / side) })
            return WaterSpot(anchor: anchor, axis: axis, halfLengths: WaterSpot.halfLengths(at: anchor, axis: axis, edges: edges, cap: reach))
        }
        return WaterShape(spots: spots, area: Double(cells.count) * cell * cell)
    }

    /// The shoreline's edges that meet a square of half-side `within` around a point.
    private static func shorelineEdges(_ land: BaseMapStore, around centre: MercatorPoint, within: Double) -> [(MercatorPoint, MercatorPoint)] {
        let box = MercatorRect(minX: centre.x - within, minY: centre.y - within, maxX: centre.x + within, maxY: centre.y + within)
        return landEdges(land, near: box) { a, b in
            max(a.x, b.x) >= box.minX && min(a.x, b.x) <= box.maxX && max(a.y, b.y) >= box.minY && min(a.y, b.y) <= box.maxY
        }
    }

    /// The edges `keep` takes of the land rings whose features meet `box`, in the table's order.
    private static func landEdges(_ land: BaseMapStore, near box: MercatorRect,
                                  keep: (MercatorPoint, MercatorPoint) -> Bool) -> [(MercatorPoint, MercatorPoint)] {
        let table = land.land
        var edges: [(MercatorPoint, MercatorPoint)] = []
        for feature in BaseMapStore.features(of: table, grid: land.landGrid, in: box) {
            for part in table.parts(of: feature) {
                let ring = table.points(ofPart: part)
                var previous = ring.upperBound - 1
                for index in ring {
                    let (a, b) = (MercatorPoint(x: table.xs[previous], y: table.ys[previous]), MercatorPoint(x: table.xs[index], y: table.ys[index]))
                    if keep(a, b) { edges.append((a, b)) }
                    previous = index
                }
            }
        }
        return edges
    }

    /// Which grid cells are water: each row's crossings with the land rings inside the grid's box, filled
    /// even-odd between them (one pass over the nearby edges per row, not a point-in-polygon test per cell).
    private static func waterMask(land: BaseMapStore, side: Int, point: (Int, Int) -> MercatorPoint) -> [Bool] {
        let (low, high) = (point(0, 0), point(side - 1, side - 1))
        let box = MercatorRect(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y)
        let edges = landEdges(land, near: box) { a, b in max(a.y, b.y) >= box.minY && min(a.y, b.y) <= box.maxY }
        var wet = [Bool](repeating: true, count: side * side)
        for row in 0..<side {
            let y = point(0, row).y
            let crossings = edges.compactMap { a, b -> Double? in
                guard (a.y > y) != (b.y > y) else { return nil }
                return a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
            }.sorted()
            var next = 0
            var inside = false
            for column in 0..<side {
                let x = point(column, row).x
                while next < crossings.count && crossings[next] < x {
                    inside.toggle()
                    next += 1
                }
                wet[row * side + column] = !inside
            }
        }
        return wet
    }

    private static func neighbours(_ index: Int, side: Int) -> [Int] {
        let (column, row) = (index % side, index / side)
        return [(column - 1, row), (column + 1, row), (column, row - 1), (column, row + 1)]
            .filter { $0.0 >= 0 && $0.0 < side && $0.1 >= 0 && $0.1 < side }.map { $0.1 * side + $0.0 }
    }

    /// The direction of greatest spread of the points (the eigenvector of their covariance's larger eigenvalue).
    static func principalAxis(_ points: [MercatorPoint]) -> (x: Double, y: Double) {
        let n = Double(max(points.count, 1))
        let (mx, my) = (points.map(\.x).reduce(0, +) / n, points.map(\.y).reduce(0, +) / n)
        var (sxx, syy, sxy) = (0.0, 0.0, 0.0)
        for p in points {
            sxx += (p.x - mx) * (p.x - mx); syy += (p.y - my) * (p.y - my); sxy += (p.x - mx) * (p.y - my)
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        var axis = (x: cos(angle), y: sin(angle))
        if axis.x < 0 || (axis.x == 0 && axis.y < 0) { axis = (-axis.x, -axis.y) }
        return axis
    }
}
