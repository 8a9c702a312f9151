import Foundation
import Planar

/// How overlapping sub-paths combine.
public enum FillRule: String, Sendable, Codable {
    case nonZero
    case evenOdd
}

/// Exact-area anti-aliasing (the AGG / FreeType / font-rs family): every edge adds its signed area and cover
/// to the cells it crosses, and a running sum along each row turns those into per-pixel coverage.
/// Edges are clipped to the grid in double precision, so far-away or huge coordinates cost little and stay
/// sound: parts above or below vanish, parts left or right become vertical edges on the border.
/// The grid may be a band of a taller frame (rows `originY ..< originY + height` of it, in frame coordinates):
/// where an edge crosses a row is computed from the edge alone, never from where the band starts, so a band
/// gets exactly the coverage of the same rows of the whole frame.
final class CoverageAccumulator {
    let width: Int
    let height: Int
    let originY: Int
    private let stride: Int
    /// (width + 2) × height cells, rows of per-row touched column bounds: raw memory, because this is the
    /// innermost loop and array accesses on a class pay exclusivity checks.
    private let cells: UnsafeMutablePointer<Float>
    /// Whether each row's cells were zeroed: a row is zeroed when an edge first reaches it (the sweep leaves the rows
    /// it reads zero again), so a fresh accumulator costs its rows with ink rather than a whole frame's cells.
    private let zeroed: UnsafeMutablePointer<Bool>
    private let rowMin: UnsafeMutablePointer<Int>
    private let rowMax: UnsafeMutablePointer<Int>
    /// The rows any edge touched since the last sweep: touchedFirstRow..<touchedEndRow.
    private var touchedFirstRow = Int.max
    private var touchedEndRow = 0
    /// The coverage of the row being swept, indexed by column.
    let coverage: UnsafeMutablePointer<Float>

    init(width: Int, height: Int, originY: Int = 0) {
        self.width = width
        self.height = height
        self.originY = originY
        stride = width + 2
        cells = .allocate(capacity: (width + 2) * height)
        zeroed = .allocate(capacity: height)
        zeroed.initialize(repeating: false, count: height)
        rowMin = .allocate(capacity: height)
        rowMin.initialize(repeating: Int.max, count: height)
        rowMax = .allocate(capacity: height)
        rowMax.initialize(repeating: Int.min, count: height)
        coverage = .allocate(capacity: width)
        coverage.initialize(repeating: 0, count: width)
    }

    deinit {
        cells.deallocate()
        zeroed.deallocate()
        rowMin.deallocate()
        rowMax.deallocate()
        coverage.deallocate()
    }

    /// Adds every ring as a closed outline, skipping those whose bounds miss the grid: a closed outline
    /// wholly outside adds no winding inside.
    func add(_ rings: PolygonRings) {
        let points = rings.points
        let (w, top, bottom) = (Double(width), Double(originY), Double(originY + height))
        for ring in 0..<rings.ringCount {
            let range = rings.ring(ring)
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for index in range {
                let p = points[index]
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
            guard maxY > top, minY < bottom, minX < w, maxX > 0 else { continue }
            var previous = points[range.upperBound - 1]
            for index in range {
                addEdge(from: previous, to: points[index])
                previous = points[index]
            }
        }
    }

    /// Clips one edge (in frame coordinates) to the grid and accumulates what remains.
    func addEdge(from p0: Point, to p1: Point) {
        guard p0.y != p1.y, p0.x.isFinite, p0.y.isFinite, p1.x.isFinite, p1.y.isFinite else { return }
        let (top, bottom) = (Double(originY), Double(originY + height))
        if (p0.y <= top && p1.y <= top) || (p0.y >= bottom && p1.y >= bottom) { return }
        splitAtSides(p0, p1)
    }

    /// Cuts the edge where it crosses x = 0 and x = width and clamps each piece onto the grid.
    private func splitAtSides(_ a: Point, _ b: Point) {
        let w = Double(width)
        var cutLow = 1.0
        var cutHigh = 1.0
        if a.x != b.x {
            let atLeft = (0 - a.x) / (b.x - a.x)
            let atRight = (w - a.x) / (b.x - a.x)
            let inside = { (t: Double) in t > 0 && t < 1 }
            switch (inside(atLeft), inside(atRight)) {
            case (true, true): (cutLow, cutHigh) = (min(atLeft, atRight), max(atLeft, atRight))
            case (true, false): cutLow = atLeft
            case (false, true): cutLow = atRight
            case (false, false): break
            }
        }
        func point(at t: Double) -> Point { t == 1 ? b : Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
        func clamped(_ p: Point) -> Point { Point(min(max(p.x, 0), w), p.y) }
        let middle = point(at: cutLow)
        accumulate(clamped(a), clamped(middle))
        guard cutLow < 1 else { return }
        let far = point(at: cutHigh)
        accumulate(clamped(middle), clamped(far))
        if cutHigh < 1 { accumulate(clamped(far), clamped(b)) }
    }

    /// font-rs's line accumulation for an edge inside [0, width], over the rows of the band it crosses; the
    /// edge's x at a row boundary comes from its ends alone (the same in every band).
    private func accumulate(_ start: Point, _ end: Point) {
        guard start.y != end.y else { return }
        let (top, bottom, direction) = start.y < end.y ? (start, end, 1.0) : (end, start, -1.0)
        let dxdy = (bottom.x - top.x) / (bottom.y - top.y)
        guard dxdy.isFinite else { return }
        let gridRight = Double(width)
        let firstRow = max(originY, Int(max(top.y, -1e15).rounded(.down)))
        let endRow = min(originY + height, Int(min(bottom.y, 1e15).rounded(.up)))
        guard firstRow < endRow else { return }
        touchedFirstRow = min(touchedFirstRow, firstRow - originY)
        touchedEndRow = max(touchedEndRow, endRow - originY)
        let startY = max(Double(firstRow), top.y)
        var x = startY >= bottom.y ? bottom.x : min(max(top.x + (startY - top.y) * dxdy, 0), gridRight)
        for frameRow in firstRow..<endRow {
            let row = frameRow - originY
            let base = row * stride
            if !zeroed[row] {
                (cells + base).initialize(repeating: 0, count: stride)
                zeroed[row] = true
            }
            let rowBottom = min(Double(frameRow + 1), bottom.y)
            let dy = rowBottom - max(Double(frameRow), top.y)
            let xNext = rowBottom >= bottom.y ? bottom.x : min(max(top.x + (rowBottom - top.y) * dxdy, 0), gridRight)
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

    /// Coverage below half a 16-bit step is nothing: it ends a span, so fills skip the gaps between shapes.
    static let negligibleCoverage: Float = 0.5 / 65535

    /// Runs of untouched cells at least this long are handed over as one uniform span.
    static let minimumUniformRun = 16

    /// Turns the accumulated cells into coverage row by row and calls `body(row, columns, uniform)` for each
    /// run of columns with coverage, skipping the gaps between shapes. Where no edge crosses a run of at
    /// least `minimumUniformRun` columns its coverage is one value, passed as `uniform` (and `coverage` is not
    /// written); otherwise `uniform` is nil and `coverage[column]` holds each column's value in 0…1.
    /// The cells are cleared for the next fill.
    func sweep(rule: FillRule, _ body: (Int, Range<Int>, Float?) -> Void) {
        let rows = touchedFirstRow < touchedEndRow ? touchedFirstRow..<touchedEndRow : 0..<0
        touchedFirstRow = Int.max
        touchedEndRow = 0
        for row in rows where rowMin[row] <= rowMax[row] {
            let first = rowMin[row]
            let last = min(rowMax[row], width - 1)
            let base = row * stride
            var sum: Float = 0
            var spanStart = -1
            var column = first
            // The end of the last run of zero cells found too short to hand over: its cells are not scanned again.
            var shortRunEnd = first
            while column <= last {
                if column >= shortRunEnd && cells[base + column] == 0 && column > first {
                    var end = column + 1
                    while end <= last && cells[base + end] == 0 { end += 1 }
                    if end - column >= Self.minimumUniformRun {
                        if spanStart >= 0 { body(row, spanStart..<column, nil) }
                        spanStart = -1
                        let value = Self.coverage(of: sum, rule: rule)
                        if value >= Self.negligibleCoverage { body(row, column..<end, value) }
                        column = end
                        continue
                    }
                    shortRunEnd = end
                }
                sum += cells[base + column]
                cells[base + column] = 0
                let value = Self.coverage(of: sum, rule: rule)
                if value < Self.negligibleCoverage {
                    if spanStart >= 0 { body(row, spanStart..<column, nil) }
                    spanStart = -1
                } else {
                    coverage[column] = value
                    if spanStart < 0 { spanStart = column }
                }
                column += 1
            }
            if spanStart >= 0 { body(row, spanStart..<(last + 1), nil) }
            let clearFrom = max(last + 1, first)
            if clearFrom <= rowMax[row] {
                for column in clearFrom...rowMax[row] { cells[base + column] = 0 }
            }
            rowMin[row] = Int.max
            rowMax[row] = Int.min
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
