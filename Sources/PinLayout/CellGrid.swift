import CPrefetch

/// Points bucketed into square cells at least `cellSize` wide, by one counting sort into a flat array: every point
/// closer than `cellSize` to a place lies in the 3×3 cells around the place's cell (clamping to the grid keeps
/// that true for places outside it). Bounded: about four cells a point at most, however sparse the points, so a
/// grid costs no more than its points; sparse points only make cells wider (slower queries, still exact). A point
/// removed is swapped past the end of its cell's live part, so queries never read it again.
struct CellGrid {
    let originX: Double, originY: Double
    let cellWidth: Double, cellHeight: Double
    let columns: Int, rows: Int
    /// The points of cell `c` still in the grid are `items[start[c]..<end[c]]`, in no particular order. Indices are
    /// 32-bit (half the memory to read; a grid holds fewer than 2^31 points).
    private var start: [Int32]
    private var end: [Int32]
    private var items: [Int32]
    /// Each point's cell and place in `items`.
    private var cellOf: [Int32]
    private var position: [Int32]

    init(xs: [Double], ys: [Double], cellSize: Double) {
        var (minX, minY, maxX, maxY) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for index in xs.indices {
            (minX, maxX) = (min(minX, xs[index]), max(maxX, xs[index]))
            (minY, maxY) = (min(minY, ys[index]), max(maxY, ys[index]))
        }
        let (width, height) = (maxX - minX, maxY - minY)
        let limit = Double(4 * xs.count + 64)
        // A hair wider than asked, so that rounding in a division never puts a point closer than `cellSize` two cells away.
        var side = cellSize * (1 + 1e-9)
        if width.isFinite, height.isFinite, side.isFinite, side > 0 {
            side = max(side, width / limit, height / limit, (width * height / limit).squareRoot())
            (columns, rows) = (max(Int(width / side), 1), max(Int(height / side), 1))
        } else {
            (columns, rows) = (1, 1)
        }
        (originX, originY) = (minX.isFinite ? minX : 0, minY.isFinite ? minY : 0)
        cellWidth = width > 0 && width.isFinite ? width / Double(columns) : max(side, 1)
        cellHeight = height > 0 && height.isFinite ? height / Double(rows) : max(side, 1)
        precondition(xs.count < Int(Int32.max), "a grid holds fewer than 2^31 points")
        var start = [Int32](repeating: 0, count: columns * rows + 1)
        var cellOf = [Int32](repeating: 0, count: xs.count)
        for index in xs.indices {
            let cell = Self.cell(xs[index], ys[index], originX, originY, cellWidth, cellHeight, columns, rows)
            cellOf[index] = Int32(cell)
            start[cell + 1] += 1
        }
        for cell in 0..<(columns * rows) { start[cell + 1] += start[cell] }
        var fill = start
        var items = [Int32](repeating: 0, count: xs.count)
        var position = [Int32](repeating: 0, count: xs.count)
        for index in xs.indices {
            let cell = Int(cellOf[index])
            (items[Int(fill[cell])], position[index]) = (Int32(index), fill[cell])
            fill[cell] += 1
        }
        self.start = start
        self.end = Array(start.dropFirst())
        self.items = items
        self.cellOf = cellOf
        self.position = position
    }

    /// Takes a point out of the grid (it must be in it).
    mutating func remove(_ point: Int) {
        let cell = Int(cellOf[point])
        let (at, last) = (position[point], end[cell] - 1)
        let moved = items[Int(last)]
        (items[Int(at)], items[Int(last)]) = (moved, Int32(point))
        (position[Int(moved)], position[point]) = (at, last)
        end[cell] = last
    }

    private static func cell(_ x: Double, _ y: Double, _ originX: Double, _ originY: Double, _ cellWidth: Double, _ cellHeight: Double,
                             _ columns: Int, _ rows: Int) -> Int {
        index(y, originY, cellHeight, rows) * columns + index(x, originX, cellWidth, columns)
    }

    /// The column (or row) of a coordinate, clamped to the grid; NaN goes to the first. Below the last, a position
    /// not below zero truncates to its floor, so no rounding call is made (two for every search).
    @inline(__always) private static func index(_ value: Double, _ origin: Double, _ size: Double, _ count: Int) -> Int {
        let position = (value - origin) / size
        return position >= 0 ? Int(min(position, Double(count - 1))) : 0
    }

    /// The cells around the place (x, y), as ranges of columns and rows: the place's cell and its eight neighbours.
    @inline(__always) func around(_ x: Double, _ y: Double) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let column = Self.index(x, originX, cellWidth, columns)
        let row = Self.index(y, originY, cellHeight, rows)
        return (max(column - 1, 0)...min(column + 1, columns - 1), max(row - 1, 0)...min(row + 1, rows - 1))
    }

    /// The cell a place lies in.
    @inline(__always) func cell(_ x: Double, _ y: Double) -> Int { Self.cell(x, y, originX, originY, cellWidth, cellHeight, columns, rows) }

    /// The slots of the cells `columns` of `row` (contiguous, the removed points among them): `items[slots]`.
    @inline(__always) func slots(row: Int, columns: ClosedRange<Int>) -> Range<Int> {
        Int(start[row * self.columns + columns.lowerBound])..<Int(start[row * self.columns + columns.upperBound + 1])
    }

    /// Asks the cache for the bounds of the cells `columns` of `row`, which `slots` reads (a hint: it changes nothing).
    @inline(__always) func prefetchBounds(row: Int, columns: ClosedRange<Int>) {
        start.withUnsafeBufferPointer { snapmap_prefetch($0.baseAddress! + row * self.columns + columns.lowerBound) }
    }

    /// The point in a slot.
    @inline(__always) func item(_ slot: Int) -> Int { Int(items[slot]) }

    /// The slots of the points of `cell` still in the grid.
    @inline(__always) func live(_ cell: Int) -> Range<Int> { Int(start[cell])..<Int(end[cell]) }

    /// Where a point sits in `items` (its slot); `items[slot(of: p)] == p`.
    @inline(__always) func slot(of point: Int) -> Int { Int(position[point]) }

    /// `values` (one per point) in the order of the grid's slots, so that a cell's points are read side by side: one
    /// read at a random place per point, so a point's fields read together are best gathered as one value.
    func inSlotOrder<Value>(_ values: [Value]) -> [Value] { items.map { values[Int($0)] } }

    /// Calls `body` once with the slots of each pair of points whose squared distance is below `squared`, from
    /// their places in slot order (`inSlotOrder`), walking the cells in order (each with itself and the four
    /// after it), so memory is read in order. Only for a grid nothing has been removed from.
    func forEachPair<Point: Placed>(closerThan squared: Double, slotted points: [Point], _ body: (Int, Int) -> Void) {
        for row in 0..<rows {
            for column in 0..<columns {
                let cell = row * columns + column
                // Most cells of a sparse grid are empty: they have no pair to start.
                guard start[cell] < start[cell + 1] else { continue }
                let after = column + 1 < columns ? slots(row: row, columns: (column + 1)...(column + 1)) : 0..<0
                let below = row + 1 < rows ? slots(row: row + 1, columns: max(column - 1, 0)...min(column + 1, columns - 1)) : 0..<0
                for a in Int(start[cell])..<Int(start[cell + 1]) {
                    func check(_ b: Int) {
                        let (dx, dy) = (points[b].x - points[a].x, points[b].y - points[a].y)
                        if dx * dx + dy * dy < squared { body(a, b) }
                    }
                    for b in (a + 1)..<Int(start[cell + 1]) { check(b) }
                    for b in after { check(b) }
                    for b in below { check(b) }
                }
            }
        }
    }
}

/// What `CellGrid.forEachPair` reads of a point: its place.
protocol Placed {
    var x: Double { get }
    var y: Double { get }
}

