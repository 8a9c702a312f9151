import GeoCore

/// MapLibre's GridIndex idea: boxes registered in the cells of a coarse grid, so a query only looks at the
/// few boxes that share its cells.
public struct CollisionGrid: Sendable {
    public let cellSize: Double
    private struct Cell: Hashable {
        let x: Int
        let y: Int
    }

    private var cells: [Cell: [Int]] = [:]
    private(set) var boxes: [ScreenRect] = []

    public init(cellSize: Double) {
        self.cellSize = cellSize
    }

    private func keys(for box: ScreenRect) -> [Cell] {
        let x0 = Int((box.minX / cellSize).rounded(.down)), x1 = Int((box.maxX / cellSize).rounded(.down))
        let y0 = Int((box.minY / cellSize).rounded(.down)), y1 = Int((box.maxY / cellSize).rounded(.down))
        var keys: [Cell] = []
        for y in y0...y1 {
            for x in x0...x1 { keys.append(Cell(x: x, y: y)) }
        }
        return keys
    }

    /// Whether `box` overlaps any registered box (touching edges do not count).
    public func collides(_ box: ScreenRect) -> Bool {
        firstCollision(box) != nil
    }

    /// The earliest registered box that `box` overlaps, by insertion order.
    public func firstCollision(_ box: ScreenRect) -> Int? {
        var first: Int?
        for key in keys(for: box) {
            for index in cells[key] ?? [] where boxes[index].overlaps(box) && index < (first ?? Int.max) { first = index }
        }
        return first
    }

    /// Every registered box that `box` overlaps, by insertion order.
    public func overlapping(_ box: ScreenRect) -> [Int] {
        var found = Set<Int>()
        for key in keys(for: box) {
            for index in cells[key] ?? [] where boxes[index].overlaps(box) { found.insert(index) }
        }
        return found.sorted()
    }

    public mutating func insert(_ box: ScreenRect) {
        for key in keys(for: box) { cells[key, default: []].append(boxes.count) }
        boxes.append(box)
    }
}
