/// A dynamic grid index of boxes of one space (`Space`: screen points, canvas pixels, mercator metres), MapLibre's
/// GridIndex: a fixed extent cut into cells kept in one dense vector, each key's box registered in the cells it
/// covers (coordinates clamped to the extent, so a box outside it sits in the edge cells), so a query looks only
/// at the boxes that share its cells. Keys are small non-negative
/// integers the caller chooses (an index into its own arrays); a key can be inserted, moved and removed at any
/// time. Bounded: at most `maxCells` cells; a box over more than `maxCellsPerBox` cells (or not a number) is kept
/// on a list every query reads, and a query over more than `maxCellsPerQuery` cells reads every box instead.
public struct GridIndex<Space>: Sendable {
    /// The most cells a grid has: a finer grid asked for is made coarser.
    @inlinable public static var maxCells: Int { 1 << 20 }
    /// The most cells one box is registered in; larger boxes go on the list every query reads.
    @inlinable public static var maxCellsPerBox: Int { 64 }
    /// The most cells one query walks; a larger query reads every box instead.
    @inlinable public static var maxCellsPerQuery: Int { 4096 }

    // Internal for @inlinable: every operation is specialised for its space where it is called, and the queries
    // have their closures inlined.
    @usableFromInline struct CellRange: Sendable {
        @usableFromInline let x0: Int, y0: Int, x1: Int, y1: Int
        @usableFromInline init(x0: Int, y0: Int, x1: Int, y1: Int) { (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1) }
        @usableFromInline var count: Int { (x1 - x0 + 1) * (y1 - y0 + 1) }
    }

    @usableFromInline let originX: Double, originY: Double
    @usableFromInline let cellWidth: Double, cellHeight: Double
    @usableFromInline let columns: Int, rows: Int
    @usableFromInline var cells: [[Int]]
    @usableFromInline var large: [Int] = []
    @usableFromInline var boxes: [PlaneRect<Space>?] = []
    @usableFromInline var ranges: [CellRange?] = []
    @usableFromInline var boxCount = 0

    /// How many keys have a box.
    @inlinable public var count: Int { boxCount }

    /// An index over `extent` (boxes may lie anywhere; the extent only decides where cells are) in cells of about
    /// `cellSize` units of its space. An extent or size that is not finite and positive gives one cell (slow, still right).
    @inlinable public init(extent: PlaneRect<Space>, cellSize: Double) {
        let usable = [extent.minX, extent.minY, extent.maxX, extent.maxY, cellSize].allSatisfy(\.isFinite) && cellSize > 0
            && extent.width >= 0 && extent.height >= 0
        let extent = usable ? extent : PlaneRect<Space>(x: 0, y: 0, width: 0, height: 0)
        let cellSize = usable ? cellSize : 1
        var (across, down) = (max((extent.width / cellSize).rounded(.up), 1), max((extent.height / cellSize).rounded(.up), 1))
        let shrink = ((across * down) / Double(Self.maxCells)).squareRoot()
        if shrink > 1 {
            down = max((down / shrink).rounded(.down), 1)
            across = min(max((across / shrink).rounded(.down), 1), (Double(Self.maxCells) / down).rounded(.down))
        }
        columns = Int(across)
        rows = Int(down)
        originX = extent.minX
        originY = extent.minY
        cellWidth = extent.width > 0 ? extent.width / across : cellSize
        cellHeight = extent.height > 0 ? extent.height / down : cellSize
        cells = Array(repeating: [], count: columns * rows)
    }

    /// The column of `x`, clamped to the grid (nil for NaN).
    @inlinable func column(_ x: Double) -> Int? {
        let column = ((x - originX) / cellWidth).rounded(.down)
        return column.isNaN ? nil : Int(min(max(column, 0), Double(columns - 1)))
    }

    @inlinable func row(_ y: Double) -> Int? {
        let row = ((y - originY) / cellHeight).rounded(.down)
        return row.isNaN ? nil : Int(min(max(row, 0), Double(rows - 1)))
    }

    @inlinable func range(_ box: PlaneRect<Space>) -> CellRange? {
        guard let x0 = column(box.minX), let x1 = column(box.maxX), let y0 = row(box.minY), let y1 = row(box.maxY), x0 <= x1, y0 <= y1 else { return nil }
        return CellRange(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// The box registered under `key`, if any.
    @inlinable public func box(_ key: Int) -> PlaneRect<Space>? { key >= 0 && key < boxes.count ? boxes[key] : nil }

    /// Registers `box` under `key` (a key already there moves to the new box).
    @inlinable public mutating func insert(_ key: Int, _ box: PlaneRect<Space>) {
        precondition(key >= 0, "GridIndex keys are non-negative")
        remove(key)
        if key >= boxes.count {
            boxes += repeatElement(nil, count: key + 1 - boxes.count)
            ranges += repeatElement(nil, count: key + 1 - ranges.count)
        }
        boxes[key] = box
        boxCount += 1
        guard let range = range(box), range.count <= Self.maxCellsPerBox else {
            large.append(key)
            return
        }
        ranges[key] = range
        for y in range.y0...range.y1 {
            for x in range.x0...range.x1 { cells[y * columns + x].append(key) }
        }
    }

    /// Forgets `key` (nothing happens when it is not there).
    @inlinable public mutating func remove(_ key: Int) {
        guard box(key) != nil else { return }
        boxes[key] = nil
        boxCount -= 1
        guard let range = ranges[key] else {
            large.removeAll { $0 == key }
            return
        }
        ranges[key] = nil
        for y in range.y0...range.y1 {
            for x in range.x0...range.x1 {
                let cell = y * columns + x
                if let at = cells[cell].lastIndex(of: key) { cells[cell].remove(at: at) }
            }
        }
    }

    /// Calls `body` once for each key whose box meets `area` (edges touching count), in no particular order.
    @inlinable public func forEach(meeting area: PlaneRect<Space>, _ body: (Int) -> Void) {
        _ = visit(meeting: area) { key in
            body(key)
            return false
        }
    }

    /// Whether a key whose box meets `area` passes `test`: the keys `forEach(meeting:)` visits, stopping at the
    /// first that passes (a query that has its answer walks no further cells).
    @inlinable public func contains(meeting area: PlaneRect<Space>, where test: (Int) -> Bool) -> Bool {
        visit(meeting: area, until: test)
    }

    /// Visits the keys whose boxes meet `area` once each until `stop` returns true; whether it did.
    @inlinable func visit(meeting area: PlaneRect<Space>, until stop: (Int) -> Bool) -> Bool {
        let (minX, minY, maxX, maxY) = (area.minX, area.minY, area.maxX, area.maxY)
        func meets(_ key: Int) -> Bool {
            guard let box = boxes[key] else { return false }
            return box.minX <= maxX && minX <= box.maxX && box.minY <= maxY && minY <= box.maxY
        }
        for key in large where meets(key) && stop(key) { return true }
        guard let query = range(area) else { return false }
        guard query.count <= Self.maxCellsPerQuery else {
            return ranges.indices.contains { ranges[$0] != nil && meets($0) && stop($0) }
        }
        for y in query.y0...query.y1 {
            for x in query.x0...query.x1 {
                for key in cells[y * columns + x] {
                    // A box in several cells is reported from the first cell it shares with the query only.
                    let own = ranges[key]!
                    guard x == max(own.x0, query.x0), y == max(own.y0, query.y0), meets(key) else { continue }
                    if stop(key) { return true }
                }
            }
        }
        return false
    }

    /// The key with the smallest `squaredDistance` under `squaredRadius` (the smaller key of two as near), looking
    /// at cells in rings around `point` until no box further out could be nearer. `squaredDistance` is a box's
    /// squared distance from `point`, or nil to pass over it.
    @inlinable public func nearest(to point: PlanePoint<Space>, squaredRadius: Double, squaredDistance: (Int) -> Double?) -> Int? {
        var best: (key: Int, distance: Double)?
        func consider(_ key: Int) {
            guard let distance = squaredDistance(key), distance < squaredRadius else { return }
            if let current = best, (current.distance, current.key) <= (distance, key) { return }
            best = (key, distance)
        }
        for key in large { consider(key) }
        guard let cx = column(point.x), let cy = row(point.y) else { return best?.key }
        let side = min(cellWidth, cellHeight)
        for ring in 0...max(cx, columns - 1 - cx, cy, rows - 1 - cy) {
            // Every box not met yet lies in cells `ring` or more away, so at least `ring − 1` cells from the point.
            let bound = Double(max(ring - 1, 0)) * side
            if bound * bound >= squaredRadius || (best.map { bound * bound > $0.distance } ?? false) { break }
            for y in max(cy - ring, 0)...min(cy + ring, rows - 1) {
                let edge = y == cy - ring || y == cy + ring
                for x in stride(from: cx - ring, through: cx + ring, by: edge ? 1 : max(2 * ring, 1)) where x >= 0 && x < columns {
                    // A box met twice (it spans cells) is considered twice, to the same effect.
                    for key in cells[y * columns + x] { consider(key) }
                }
            }
        }
        return best?.key
    }

    /// The keys whose boxes meet `area`, smallest first.
    @inlinable public func keys(meeting area: PlaneRect<Space>) -> [Int] {
        var found: [Int] = []
        forEach(meeting: area) { found.append($0) }
        return found.sorted()
    }
}
