/// Clips geometry (already in tile units, y down) to the tile's square grown by its buffer: rings by
/// Sutherland–Hodgman against each side in turn (orientation is kept; a ring around the square becomes the
/// square), lines by Liang–Barsky per segment, cut into pieces where they leave the square.
struct TileClipper {
    let minimum: Double
    let maximum: Double

    init(extent: Int, buffer: Int) {
        minimum = Double(-buffer)
        maximum = Double(extent + buffer)
    }

    /// Whether a point lies in the square (its edges included).
    @inline(__always)
    func contains(_ x: Double, _ y: Double) -> Bool { x >= minimum && x <= maximum && y >= minimum && y <= maximum }

    /// Whether every point of a line or ring lies in the square.
    func contains(_ xs: [Double], _ ys: [Double]) -> Bool { zip(xs, ys).allSatisfy { contains($0, $1) } }

    /// A ring clipped to the square; empty when nothing of it is inside.
    func clip(ring xs: [Double], _ ys: [Double]) -> (xs: [Double], ys: [Double]) {
        var (xs, ys) = (xs, ys)
        for (axisIsX, bound, keepsAbove) in [(true, minimum, true), (true, maximum, false), (false, minimum, true), (false, maximum, false)] {
            guard !xs.isEmpty else { break }
            (xs, ys) = Self.clip(xs, ys, axisIsX: axisIsX, bound: bound, keepsAbove: keepsAbove)
        }
        return (xs, ys)
    }

    /// One Sutherland–Hodgman pass against the half-plane `coordinate ≥ bound` (or `≤`).
    private static func clip(_ xs: [Double], _ ys: [Double], axisIsX: Bool, bound: Double, keepsAbove: Bool) -> ([Double], [Double]) {
        let count = xs.count
        let along = axisIsX ? xs : ys
        if along.allSatisfy({ keepsAbove ? $0 >= bound : $0 <= bound }) { return (xs, ys) }
        var outXs: [Double] = [], outYs: [Double] = []
        outXs.reserveCapacity(count)
        outYs.reserveCapacity(count)
        var previous = count - 1
        for current in 0..<count {
            let a = along[previous], b = along[current]
            let aInside = keepsAbove ? a >= bound : a <= bound
            let bInside = keepsAbove ? b >= bound : b <= bound
            if aInside != bInside {
                let t = (bound - a) / (b - a)
                if axisIsX {
                    outXs.append(bound)
                    outYs.append(ys[previous] + t * (ys[current] - ys[previous]))
                } else {
                    outXs.append(xs[previous] + t * (xs[current] - xs[previous]))
                    outYs.append(bound)
                }
            }
            if bInside {
                outXs.append(xs[current])
                outYs.append(ys[current])
            }
            previous = current
        }
        return (outXs, outYs)
    }

    /// A line clipped to the square: the pieces inside, in order.
    func clip(line xs: [Double], _ ys: [Double]) -> [(xs: [Double], ys: [Double])] {
        var pieces: [(xs: [Double], ys: [Double])] = []
        var pieceXs: [Double] = [], pieceYs: [Double] = []
        func finish() {
            if pieceXs.count >= 2 { pieces.append((pieceXs, pieceYs)) }
            pieceXs = []
            pieceYs = []
        }
        for index in 0..<(xs.count - 1) {
            let (x0, y0, x1, y1) = (xs[index], ys[index], xs[index + 1], ys[index + 1])
            guard let (t0, t1) = segment(x0, y0, x1, y1) else {
                finish()
                continue
            }
            if t0 > 0 || pieceXs.isEmpty {
                finish()
                pieceXs.append(x0 + t0 * (x1 - x0))
                pieceYs.append(y0 + t0 * (y1 - y0))
            }
            pieceXs.append(x0 + t1 * (x1 - x0))
            pieceYs.append(y0 + t1 * (y1 - y0))
            if t1 < 1 { finish() }
        }
        finish()
        return pieces
    }

    /// Liang–Barsky: the parameters where a segment enters and leaves the square, or nil when it misses it.
    private func segment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> (Double, Double)? {
        // Whole segments inside, the common case, need no division.
        if contains(x0, y0), contains(x1, y1) { return (0, 1) }
        // Both ends beyond the same side (most of a long shoreline far from the tile): no division either.
        if (x0 < minimum && x1 < minimum) || (x0 > maximum && x1 > maximum) || (y0 < minimum && y1 < minimum) || (y0 > maximum && y1 > maximum) {
            return nil
        }
        var t0 = 0.0, t1 = 1.0
        let dx = x1 - x0, dy = y1 - y0
        func limit(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 {
                if r > t1 { return false }
                t0 = max(t0, r)
            } else {
                if r < t0 { return false }
                t1 = min(t1, r)
            }
            return true
        }
        guard limit(-dx, x0 - minimum), limit(dx, maximum - x0), limit(-dy, y0 - minimum), limit(dy, maximum - y0) else { return nil }
        return t0 <= t1 ? (t0, t1) : nil
    }
}
