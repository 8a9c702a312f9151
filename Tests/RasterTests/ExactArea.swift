import GeoCore
@testable import Raster

/// The exact area a polygon covers under a fill rule: cut the plane into horizontal slabs at every vertex and
/// every crossing of two edges; inside a slab the covered width is linear in y, so the midpoint is exact.
enum ExactArea {
    static func of(_ polygon: [Point], rule: FillRule) -> Double {
        let edges = polygon.indices.map { (polygon[$0], polygon[($0 + 1) % polygon.count]) }
        var cuts = Set(polygon.map(\.y))
        for i in edges.indices {
            for j in (i + 1)..<edges.count {
                if let y = crossingY(edges[i], edges[j]) { cuts.insert(y) }
            }
        }
        let levels = cuts.sorted()
        var area = 0.0
        for (y0, y1) in zip(levels, levels.dropFirst()) where y1 > y0 {
            let middle = (y0 + y1) / 2
            var crossings: [(x: Double, direction: Int)] = []
            for (a, b) in edges where min(a.y, b.y) < middle && middle < max(a.y, b.y) {
                crossings.append((a.x + (b.x - a.x) * (middle - a.y) / (b.y - a.y), b.y > a.y ? 1 : -1))
            }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            var width = 0.0
            for (index, crossing) in crossings.enumerated() {
                winding += crossing.direction
                let inside = rule == .nonZero ? winding != 0 : winding % 2 != 0
                if inside, index + 1 < crossings.count { width += crossings[index + 1].x - crossing.x }
            }
            area += width * (y1 - y0)
        }
        return area
    }

    private static func crossingY(_ e: (Point, Point), _ f: (Point, Point)) -> Double? {
        let r = e.1 - e.0
        let s = f.1 - f.0
        let denominator = r.cross(s)
        guard abs(denominator) > 1e-12 else { return nil }
        let t = (f.0 - e.0).cross(s) / denominator
        let u = (f.0 - e.0).cross(r) / denominator
        guard t > 0, t < 1, u > 0, u < 1 else { return nil }
        return e.0.y + r.y * t
    }
}
extension Canvas {
    /// The summed alpha of every pixel, in pixels of full coverage (read at 16-bit precision).
    var totalCoverage: Double {
        var sum = 0.0
        for index in Swift.stride(from: 3, to: storage.count, by: 4) { sum += Double(storage[index]) }
        return sum / 65535
    }

    func alpha(x: Int, y: Int) -> Double { Double(storage[(y * width + x) * 4 + 3]) / 65535 }
}
