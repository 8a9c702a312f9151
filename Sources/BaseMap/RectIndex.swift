import GeoCore
import Raster

/// Boxes in view pixels that a new box must keep clear of, in a `GridIndex`: a query looks at its neighbours only.
struct RectIndex {
    private var grid: GridIndex<Pixels>

    /// An index whose cells cover `extent` (boxes outside it are still found).
    init(extent: Rect, cellSize: Double) { grid = GridIndex(extent: extent, cellSize: cellSize) }

    mutating func append(_ box: Rect) { grid.insert(grid.count, box) }

    /// Whether `box` shares interior area with any box added.
    func intersects(_ box: Rect) -> Bool {
        var found = false
        grid.forEach(meeting: box) { found = found || grid.box($0)!.overlaps(box) }
        return found
    }
}
