import GeoCore
import Raster

/// Boxes in view pixels that a new box must keep clear of, in a `GridIndex`: a query looks at its neighbours only.
struct RectIndex {
    private var grid: GridIndex
    private var boxes: [Rect] = []

    /// An index whose cells cover `extent` (boxes outside it are still found).
    init(extent: Rect, cellSize: Double) { grid = GridIndex(extent: Self.screenRect(extent), cellSize: cellSize) }

    mutating func append(_ box: Rect) {
        grid.insert(boxes.count, Self.screenRect(box))
        boxes.append(box)
    }

    /// Whether `box` shares interior area with any box added.
    func intersects(_ box: Rect) -> Bool {
        var found = false
        grid.forEach(meeting: Self.screenRect(box)) { found = found || boxes[$0].overlaps(box) }
        return found
    }

    /// The same box as the grid keeps it.
    private static func screenRect(_ box: Rect) -> ScreenRect { ScreenRect(x: box.x, y: box.y, width: box.width, height: box.height) }
}
