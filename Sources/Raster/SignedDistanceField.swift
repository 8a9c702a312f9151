/// A signed distance field of a coverage image, as MapLibre's glyphs use them (TinySDF's encoding): the image
/// grown by `buffer` pixels a side, each pixel 255 − 255·(d / radius + cutoff) for its distance d to the shape's
/// edge (negative inside), found exactly by Felzenszwalb and Huttenlocher's distance transform.
public enum SignedDistanceField {
    private static let infinity = 1e20

    public static func make(coverage: [UInt8], width: Int, height: Int, buffer: Int, radius: Double, cutoff: Double) -> [UInt8] {
        let (fieldWidth, fieldHeight) = (width + 2 * buffer, height + 2 * buffer)
        // `outer` holds zeros inside the shape (its transform is the distance from outside), `inner` the reverse.
        var outer = [Double](repeating: infinity, count: fieldWidth * fieldHeight)
        var inner = [Double](repeating: 0, count: fieldWidth * fieldHeight)
        for y in 0..<height {
            for x in 0..<width {
                let alpha = Double(coverage[y * width + x]) / 255
                let index = (y + buffer) * fieldWidth + x + buffer
                if alpha >= 1 {
                    (outer[index], inner[index]) = (0, infinity)
                } else if alpha > 0 {
                    // Sub-pixel edge: the pixel centre is (0.5 − alpha) outside the edge.
                    let distance = 0.5 - alpha
                    (outer[index], inner[index]) = (distance > 0 ? distance * distance : 0, distance < 0 ? distance * distance : 0)
                }
            }
        }
        transform(&outer, width: fieldWidth, height: fieldHeight)
        transform(&inner, width: fieldWidth, height: fieldHeight)
        return zip(outer, inner).map { outside, inside in
            let distance = outside.squareRoot() - inside.squareRoot()
            return UInt8(min(max((255 - 255 * (distance / radius + cutoff)).rounded(), 0), 255))
        }
    }

    /// Squared distances to the nearest zero of a grid of squared distances: columns, then rows.
    private static func transform(_ grid: inout [Double], width: Int, height: Int) {
        let length = max(width, height)
        var values = [Double](repeating: 0, count: length), vertices = [Int](repeating: 0, count: length)
        var bounds = [Double](repeating: 0, count: length + 1)
        for x in 0..<width { line(&grid, offset: x, stride: width, count: height, &values, &vertices, &bounds) }
        for y in 0..<height { line(&grid, offset: y * width, stride: 1, count: width, &values, &vertices, &bounds) }
    }

    /// The one-dimensional transform: the lower envelope of parabolas rooted at each sample.
    private static func line(_ grid: inout [Double], offset: Int, stride: Int, count: Int, _ values: inout [Double], _ vertices: inout [Int],
                             _ bounds: inout [Double]) {
        for q in 0..<count { values[q] = grid[offset + q * stride] }
        vertices[0] = 0
        bounds[0] = -infinity
        bounds[1] = infinity
        var k = 0
        for q in 1..<max(count, 1) {
            var s = 0.0
            repeat {
                let r = vertices[k]
                s = (values[q] + Double(q * q) - values[r] - Double(r * r)) / Double(2 * q - 2 * r)
                if s <= bounds[k] { k -= 1 } else { break }
            } while k >= 0
            k += 1
            vertices[k] = q
            bounds[k] = s
            bounds[k + 1] = infinity
        }
        k = 0
        for q in 0..<count {
            while bounds[k + 1] < Double(q) { k += 1 }
            let r = vertices[k]
            grid[offset + q * stride] = values[r] + Double((q - r) * (q - r))
        }
    }
}
