import Foundation

/// How overlapping sub-paths combine.
public enum FillRule: String, Sendable, Codable {
    case nonZero
    case evenOdd
}

/// Exact-area anti-aliasing (the AGG / FreeType / font-rs family): every edge adds its signed area and cover
/// to the cells it crosses, and a running sum along each row turns those into per-pixel coverage.
/// Edges are clipped to the grid in double precision first, so far-away or huge coordinates cost little
/// and stay sound: parts above or below vanish, parts left or right become vertical edges on the border.
final class CoverageAccumulator {
    let width: Int
    let height: Int
    private let stride: Int
    private var cells: [Float]
    private var rowMin: [Int]
    private var rowMax: [Int]
    private(set) var coverage: [Float]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width + 2
        cells = [Float](repeating: 0, count: (width + 2) * height)
        rowMin = [Int](repeating: Int.max, count: height)
        rowMax = [Int](repeating: Int.min, count: height)
        coverage = [Float](repeating: 0, count: width)
    }

    /// Adds every contour as a closed outline (open ones are closed implicitly, as fills do), skipping those
    /// whose bounds miss the grid: a closed outline wholly outside adds no winding inside.
    func add(_ contours: [Contour]) {
        for contour in contours where contour.points.count > 1 {
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for p in contour.points {
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
            guard maxY > 0, minY < Double(height), minX < Double(width), maxX > 0 else { continue }
            var previous = contour.points[contour.points.count - 1]
            for point in contour.points {
                addEdge(from: previous, to: point)
                previous = point
            }
        }
    }

    /// Clips one edge to the grid and accumulates what remains.
    func addEdge(from p0: Point, to p1: Point) {
        guard p0.y != p1.y, p0.x.isFinite, p0.y.isFinite, p1.x.isFinite, p1.y.isFinite else { return }
        let h = Double(height)
        if (p0.y <= 0 && p1.y <= 0) || (p0.y >= h && p1.y >= h) { return }
        let dy = p1.y - p0.y
        let t0 = (0 - p0.y) / dy
        let t1 = (h - p0.y) / dy
        let enter = max(0, min(t0, t1))
        let exit = min(1, max(t0, t1))
        guard enter < exit else { return }
        let dx = p1.x - p0.x
        let a = Point(enter == 0 ? p0.x : p0.x + dx * enter, enter == 0 ? p0.y : (t0 < t1 ? 0 : h))
        let b = Point(exit == 1 ? p1.x : p0.x + dx * exit, exit == 1 ? p1.y : (t0 < t1 ? h : 0))
        splitAtSides(a, b)
    }

    /// Cuts the edge where it crosses x = 0 and x = width and clamps each piece onto the grid.
    private func splitAtSides(_ a: Point, _ b: Point) {
        let w = Double(width)
        var cuts: [Double] = []
        if a.x != b.x {
            for side in [0, w] {
                let t = (side - a.x) / (b.x - a.x)
                if t > 0 && t < 1 { cuts.append(t) }
            }
        }
        if cuts.isEmpty {
            accumulate(Point(min(max(a.x, 0), w), a.y), Point(min(max(b.x, 0), w), b.y))
            return
        }
        cuts.sort()
        var start = a
        for t in cuts + [1] {
            let end = t == 1 ? b : Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
            accumulate(Point(min(max(start.x, 0), w), start.y), Point(min(max(end.x, 0), w), end.y))
            start = end
        }
    }

    /// font-rs's line accumulation for an edge inside [0, width] × [0, height].
    private func accumulate(_ start: Point, _ end: Point) {
        guard start.y != end.y else { return }
        let (top, bottom, direction) = start.y < end.y ? (start, end, 1.0) : (end, start, -1.0)
        let dxdy = (bottom.x - top.x) / (bottom.y - top.y)
        var x = top.x
        let firstRow = max(0, Int(top.y.rounded(.down)))
        let endRow = min(height, Int(bottom.y.rounded(.up)))
        guard firstRow < endRow else { return }
        cells.withUnsafeMutableBufferPointer { cells in
            for row in firstRow..<endRow {
                let base = row * stride
                let dy = min(Double(row + 1), bottom.y) - max(Double(row), top.y)
                let xNext = x + dxdy * dy
                let d = dy * direction
                let (left, right) = x < xNext ? (x, xNext) : (xNext, x)
                let leftFloor = left.rounded(.down)
                let leftIndex = Int(leftFloor)
                let rightCeil = right.rounded(.up)
                let rightIndex = Int(rightCeil)
                if rightIndex <= leftIndex + 1 {
                    let middle = 0.5 * (x + xNext) - leftFloor
                    cells[base + leftIndex] += Float(d - d * middle)
                    cells[base + leftIndex + 1] += Float(d * middle)
                } else {
                    let slope = 1 / (right - left)
                    let leftFraction = left - leftFloor
                    let firstArea = 0.5 * slope * (1 - leftFraction) * (1 - leftFraction)
                    let rightFraction = right - rightCeil + 1
                    let lastArea = 0.5 * slope * rightFraction * rightFraction
                    cells[base + leftIndex] += Float(d * firstArea)
                    if rightIndex == leftIndex + 2 {
                        cells[base + leftIndex + 1] += Float(d * (1 - firstArea - lastArea))
                    } else {
                        let secondArea = slope * (1.5 - leftFraction)
                        cells[base + leftIndex + 1] += Float(d * (secondArea - firstArea))
                        if leftIndex + 2 < rightIndex - 1 {
                            let step = Float(d * slope)
                            for index in (leftIndex + 2)..<(rightIndex - 1) { cells[base + index] += step }
                        }
                        let beforeLast = secondArea + Double(rightIndex - leftIndex - 3) * slope
                        cells[base + rightIndex - 1] += Float(d * (1 - beforeLast - lastArea))
                    }
                    cells[base + rightIndex] += Float(d * lastArea)
                }
                rowMin[row] = min(rowMin[row], leftIndex)
                rowMax[row] = max(rowMax[row], min(rightIndex + 1, width + 1))
                x = xNext
            }
        }
    }

    /// Turns the accumulated cells into coverage row by row, calls `body(row, columns)` for each row that has
    /// any (with `coverage[column]` in 0…1 for those columns), and clears the cells for the next fill.
    func sweep(rule: FillRule, _ body: (Int, Range<Int>) -> Void) {
        for row in 0..<height where rowMin[row] <= rowMax[row] {
            let first = rowMin[row]
            let last = min(rowMax[row], width - 1)
            var sum: Float = 0
            cells.withUnsafeMutableBufferPointer { cells in
                coverage.withUnsafeMutableBufferPointer { coverage in
                    let base = row * stride
                    if first <= last {
                        for column in first...last {
                            sum += cells[base + column]
                            cells[base + column] = 0
                            coverage[column] = Self.coverage(of: sum, rule: rule)
                        }
                    }
                    let clearFrom = max(last + 1, first)
                    if clearFrom <= rowMax[row] {
                        for column in clearFrom...rowMax[row] { cells[base + column] = 0 }
                    }
                }
            }
            rowMin[row] = Int.max
            rowMax[row] = Int.min
            if first <= last { body(row, first..<(last + 1)) }
        }
    }

    @inline(__always)
    private static func coverage(of winding: Float, rule: FillRule) -> Float {
        let magnitude = abs(winding)
        switch rule {
        case .nonZero:
            return min(magnitude, 1)
        case .evenOdd:
            let folded = magnitude.truncatingRemainder(dividingBy: 2)
            return folded > 1 ? 2 - folded : folded
        }
    }
}
