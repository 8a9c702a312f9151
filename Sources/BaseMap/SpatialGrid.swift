import GeoCore

/// A uniform grid over feature bounds in compressed rows (cell starts and a flat item list), answering which
/// features may touch a rectangle. Results come sorted by feature index, so drawing order is the same for
/// every tile and frame.
public struct SpatialGrid: Sendable {
    public let cellSize: Double
    let originX: Double
    let originY: Double
    let columns: Int
    let rows: Int
    let cellStarts: [Int32]
    let items: [Int32]

    /// Indexes the bounds of every feature of a table.
    public init(table: FeatureTable, cellSize: Double) {
        let count = table.count
        let originX = table.minXs.min() ?? 0
        let originY = table.minYs.min() ?? 0
        let columns = max(1, Int(((table.maxXs.max() ?? 0) - originX) / cellSize) + 1)
        let rows = max(1, Int(((table.maxYs.max() ?? 0) - originY) / cellSize) + 1)
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        func cells(of index: Int) -> (ClosedRange<Int>, ClosedRange<Int>) {
            let x0 = Int((table.minXs[index] - originX) / cellSize), x1 = Int((table.maxXs[index] - originX) / cellSize)
            let y0 = Int((table.minYs[index] - originY) / cellSize), y1 = Int((table.maxYs[index] - originY) / cellSize)
            return (x0...x1, y0...y1)
        }
        for index in 0..<count {
            let (xs, ys) = cells(of: index)
            for y in ys { for x in xs { counts[y * columns + x + 1] += 1 } }
        }
        for cell in 0..<(columns * rows) { counts[cell + 1] += counts[cell] }
        var cursor = counts
        var items = [Int32](repeating: 0, count: Int(counts[columns * rows]))
        for index in 0..<count {
            let (xs, ys) = cells(of: index)
            for y in ys {
                for x in xs {
                    items[Int(cursor[y * columns + x])] = Int32(index)
                    cursor[y * columns + x] += 1
                }
            }
        }
        self.cellSize = cellSize
        self.originX = originX
        self.originY = originY
        self.columns = columns
        self.rows = rows
        cellStarts = counts
        self.items = items
    }

    /// The indices of features whose cells meet `rect`, ascending and without repeats.
    public func query(_ rect: MercatorRect) -> [Int] {
        let x0 = max(0, Int(((rect.minX - originX) / cellSize).rounded(.down)))
        let y0 = max(0, Int(((rect.minY - originY) / cellSize).rounded(.down)))
        let x1 = min(columns - 1, Int(((rect.maxX - originX) / cellSize).rounded(.down)))
        let y1 = min(rows - 1, Int(((rect.maxY - originY) / cellSize).rounded(.down)))
        guard x0 <= x1, y0 <= y1 else { return [] }
        var found: [Int] = []
        for y in y0...y1 {
            for x in x0...x1 {
                let cell = y * columns + x
                for slot in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) { found.append(Int(items[slot])) }
            }
        }
        found.sort()
        var unique: [Int] = []
        unique.reserveCapacity(found.count)
        for index in found where unique.last != index { unique.append(index) }
        return unique
    }
}
