import Foundation
import GeoCore

/// One place a water's name may go: its centre, the unit vector the name is written along, and, for each
/// half-height of `halfHeights`, how far each way along the axis a box of that half-height centred there stays on
/// the water (no shoreline edge inside it). Kept in the places table as one part: the centre, the centre plus the
/// axis, then the centre plus the axis times each of those lengths.
struct WaterSpot {
    /// Half-heights of a name's box, mercator metres: z11's 17-point water name is about 650 m high.
    static let halfHeights: [Double] = [10, 20, 40, 80, 160, 320, 640, 1280, 2560]

    let anchor: MercatorPoint
    let axis: (x: Double, y: Double)
    let halfLengths: [Double]

    init(anchor: MercatorPoint, axis: (x: Double, y: Double), halfLengths: [Double]) {
        self.anchor = anchor
        self.axis = axis
        self.halfLengths = halfLengths
    }

    /// A spot read back from its part's points (nil when the part is not one).
    init?(points: [MercatorPoint]) {
        guard points.count == 2 + Self.halfHeights.count else { return nil }
        anchor = points[0]
        axis = (points[1].x - points[0].x, points[1].y - points[0].y)
        halfLengths = points.dropFirst(2).map { (($0.x - points[0].x) * ($0.x - points[0].x) + ($0.y - points[0].y) * ($0.y - points[0].y)).squareRoot() }
    }

    var points: [MercatorPoint] {
        [anchor, anchor.offset(by: axis)] + halfLengths.map { MercatorPoint(x: anchor.x + axis.x * $0, y: anchor.y + axis.y * $0) }
    }

    /// Whether a box of these half-sizes (mercator metres) centred here along the axis lies on the water: the
    /// length kept for the smallest listed half-height at least this one (lengths shrink as heights grow).
    func fits(halfLength: Double, halfHeight: Double) -> Bool {
        guard let slot = Self.halfHeights.firstIndex(where: { $0 >= halfHeight }) else { return false }
        return halfLengths[slot] >= halfLength
    }

    /// The half-lengths at `anchor` along `axis`: for each half-height h, the least distance along the axis of a point
    /// of a shoreline edge within h of the axis line (the box stops short of it), at most `cap` (0 for h beyond it).
    static func halfLengths(at anchor: MercatorPoint, axis: (x: Double, y: Double), edges: [(MercatorPoint, MercatorPoint)], cap: Double) -> [Double] {
        let normal = (x: -axis.y, y: axis.x)
        func along(_ p: MercatorPoint) -> (s: Double, t: Double) {
            let (dx, dy) = (p.x - anchor.x, p.y - anchor.y)
            return (dx * axis.x + dy * axis.y, dx * normal.x + dy * normal.y)
        }
        return halfHeights.map { h in
            guard h <= cap else { return 0 }
            var best = cap
            for (p, q) in edges {
                let (a, b) = (along(p), along(q))
                var (low, high) = (0.0, 1.0)
                let dt = b.t - a.t
                if dt == 0 {
                    guard abs(a.t) <= h else { continue }
                } else {
                    let (enter, leave) = ((-h - a.t) / dt, (h - a.t) / dt)
                    low = max(low, min(enter, leave))
                    high = min(high, max(enter, leave))
                    guard low <= high else { continue }
                }
                let (s0, s1) = (a.s + low * (b.s - a.s), a.s + high * (b.s - a.s))
                best = min(best, (s0 <= 0) != (s1 <= 0) ? 0 : min(abs(s0), abs(s1)))
            }
            return best
        }
    }
}
