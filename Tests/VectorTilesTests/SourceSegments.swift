import BaseMap
import Foundation
import GeoCore

/// Segments in tile units in a grid of cells, answering the distance from a point to the nearest of them
/// (when it is under a cell's side; farther answers are infinity).
struct SegmentGrid {
    static let cell = 16.0
    static let range = -200.0...4300.0
    private var cells: [Int: [(Double, Double, Double, Double)]] = [:]
    private(set) var points: [(x: Double, y: Double)] = []

    init(lines: [[(x: Double, y: Double)]], closed: Bool = false) {
        for line in lines where !line.isEmpty {
            points += line
            let ends = closed ? line + [line[0]] : line
            for index in 1..<max(ends.count, 1) where index < ends.count { add(ends[index - 1], ends[index]) }
            if ends.count == 1 { add(ends[0], ends[0]) }
        }
    }

    private static func key(_ column: Int, _ row: Int) -> Int { column * 100_000 + row }

    private mutating func add(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) {
        guard max(a.x, b.x) >= Self.range.lowerBound, min(a.x, b.x) <= Self.range.upperBound,
              max(a.y, b.y) >= Self.range.lowerBound, min(a.y, b.y) <= Self.range.upperBound else { return }
        let clamp = { (value: Double) in min(max(value, Self.range.lowerBound), Self.range.upperBound) }
        let (c0, c1) = (Int((clamp(min(a.x, b.x)) / Self.cell).rounded(.down)), Int((clamp(max(a.x, b.x)) / Self.cell).rounded(.down)))
        let (r0, r1) = (Int((clamp(min(a.y, b.y)) / Self.cell).rounded(.down)), Int((clamp(max(a.y, b.y)) / Self.cell).rounded(.down)))
        for column in c0...c1 { for row in r0...r1 { cells[Self.key(column, row), default: []].append((a.x, a.y, b.x, b.y)) } }
    }

    func distance(to point: (x: Double, y: Double)) -> Double {
        let (column, row) = (Int((point.x / Self.cell).rounded(.down)), Int((point.y / Self.cell).rounded(.down)))
        var best = Double.infinity
        for c in (column - 1)...(column + 1) {
            for r in (row - 1)...(row + 1) {
                for (ax, ay, bx, by) in cells[Self.key(c, r)] ?? [] {
                    let (dx, dy) = (bx - ax, by - ay)
                    let t = dx == 0 && dy == 0 ? 0 : min(1, max(0, ((point.x - ax) * dx + (point.y - ay) * dy) / (dx * dx + dy * dy)))
                    best = min(best, hypot(point.x - (ax + t * dx), point.y - (ay + t * dy)))
                }
            }
        }
        return best
    }
}

/// The stored base map around a tile, projected to the tile's units (y down) by the tile's own bounds.
struct SourceSegments {
    let store: BaseMapStore
    let bounds: MercatorRect
    let unitsPerMetre: Double

    init(store: BaseMapStore, tile: TileID) {
        self.store = store
        bounds = tile.mercatorBounds
        unitsPerMetre = 4096 / tile.span
    }

    private func parts(_ table: FeatureTable, _ feature: Int) -> [[(x: Double, y: Double)]] {
        table.parts(of: feature).map { part in
            table.points(ofPart: part).map { ((table.xs[$0] - bounds.minX) * unitsPerMetre, (bounds.maxY - table.ys[$0]) * unitsPerMetre) }
        }
    }

    private var area: MercatorRect { bounds.outset(by: 200 / unitsPerMetre) }

    var land: SegmentGrid {
        SegmentGrid(lines: BaseMapStore.features(of: store.land, grid: store.landGrid, in: area).flatMap { parts(store.land, $0) }, closed: true)
    }

    func park(_ feature: Int) -> SegmentGrid { SegmentGrid(lines: parts(store.parks, feature), closed: true) }

    /// Streets of a class, leaving out those shorter than a pixel (8 units) on their longer side, as tiles do.
    func streets(class name: PropertyValue?) -> SegmentGrid {
        guard case .text(let text) = name, let street = StreetClass(rawValue: text) else { return SegmentGrid(lines: []) }
        let table = store.streets
        let features = BaseMapStore.features(of: table, grid: store.streetGrid, in: area).filter { feature in
            let box = table.bounds(of: feature)
            return table.classes[feature] == street.rank && max(box.width, box.height) * unitsPerMetre >= 8
        }
        return SegmentGrid(lines: features.flatMap { parts(table, $0) })
    }
}
