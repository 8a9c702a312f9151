/// The columns of each row drawn since a canvas was made or copied, as a few spans a row that cover everything drawn
/// in it: an encoder reads where a copy can differ from the canvas it was copied from (`PNGBands`).
struct TouchedColumns {
    /// Spans kept a row; more are joined, the two closest first.
    static let spansPerRow = 8
    /// Spans closer than this many columns are joined as they are marked.
    static let joinGap: Int32 = 32

    let height: Int
    /// Whether spans are kept (for copies, which an encoder splices), or only `marks` counted.
    let isTracking: Bool
    /// `spansPerRow` pairs of `from, to` a row, sorted and apart, unused pairs (0, 0) at the end. Empty until
    /// something is drawn.
    private(set) var spans: [Int32] = []
    /// How many spans were marked: a canvas whose count moved was drawn on.
    private(set) var marks = 0

    init(height: Int, tracking: Bool) {
        self.height = height
        isTracking = tracking
    }

    /// Counts `spans` drawn on a canvas that does not track its columns (as many marks).
    mutating func count(_ spans: Int) {
        marks &+= spans
    }

    /// Marks `columns` of one row (rows outside the canvas are ignored).
    mutating func mark(row: Int, columns: Range<Int>) {
        guard row >= 0, row < height, !columns.isEmpty else { return }
        marks &+= 1
        guard isTracking else { return }
        if spans.isEmpty { spans = [Int32](repeating: 0, count: 2 * Self.spansPerRow * height) }
        var from = Int32(clamping: columns.lowerBound), to = Int32(clamping: columns.upperBound)
        let base = 2 * Self.spansPerRow * row
        for slot in 0..<Self.spansPerRow where spans[base + 2 * slot] <= from && to <= spans[base + 2 * slot + 1] { return }
        withUnsafeTemporaryAllocation(of: (Int32, Int32).self, capacity: Self.spansPerRow + 1) { apart in
            // The row's spans that stay apart from the new one, in order, and the new one grown over the others.
            var count = 0
            for slot in 0..<Self.spansPerRow {
                let (start, end) = (spans[base + 2 * slot], spans[base + 2 * slot + 1])
                guard start < end else { break }
                if end + Self.joinGap < from || start > to + Self.joinGap {
                    apart[count] = (start, end)
                    count += 1
                } else {
                    (from, to) = (min(from, start), max(to, end))
                }
            }
            var at = count
            while at > 0 && apart[at - 1].0 > from {
                apart[at] = apart[at - 1]
                at -= 1
            }
            apart[at] = (from, to)
            count += 1
            if count > Self.spansPerRow {
                var closest = 0
                for index in 1..<(count - 1) where apart[index + 1].0 - apart[index].1 < apart[closest + 1].0 - apart[closest].1 { closest = index }
                apart[closest].1 = apart[closest + 1].1
                for index in (closest + 1)..<(count - 1) { apart[index] = apart[index + 1] }
                count -= 1
            }
            for slot in 0..<Self.spansPerRow {
                (spans[base + 2 * slot], spans[base + 2 * slot + 1]) = slot < count ? apart[slot] : (0, 0)
            }
        }
    }

    /// Marks `columns` of every row in `rows`.
    mutating func mark(rows: Range<Int>, columns: Range<Int>) {
        let (from, to) = (max(0, rows.lowerBound), min(height, rows.upperBound))
        guard from < to else { return }
        for row in from..<to { mark(row: row, columns: columns) }
    }

    /// The spans drawn in `row`, in order (none when nothing was).
    func columns(of row: Int) -> [Range<Int>] {
        guard !spans.isEmpty else { return [] }
        let base = 2 * Self.spansPerRow * row
        return (0..<Self.spansPerRow).lazy.map { (Int(spans[base + 2 * $0]), Int(spans[base + 2 * $0 + 1])) }.prefix { $0.0 < $0.1 }.map { $0.0..<$0.1 }
    }

    /// Whether anything was drawn in `row`.
    func isTouched(_ row: Int) -> Bool {
        !spans.isEmpty && spans[2 * Self.spansPerRow * row] < spans[2 * Self.spansPerRow * row + 1]
    }
}
