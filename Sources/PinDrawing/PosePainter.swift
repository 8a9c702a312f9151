import Foundation
import LiveMap
import Raster

/// Draws an Actionmoji pose around a pin's avatar with the rasterizer's paths (our own drawings, no images): a plane
/// window behind it (flying), a car in front of it (driving), balloons behind it (birthday), "z z" beside it (asleep).
/// Shapes are in units of the avatar's width, so they hold at every pin size; standing adds nothing.
enum PosePainter {
    static let windowFrame = Color(r: 228, g: 231, b: 236, a: 255)
    static let sky = Color(r: 178, g: 220, b: 255, a: 255)
    static let carBody = Color(r: 229, g: 72, b: 77, a: 255)
    static let glass = Color(r: 205, g: 235, b: 255, a: 255)
    static let tyre = Color(r: 43, g: 36, b: 38, a: 255)
    static let hub = Color(r: 200, g: 203, b: 208, a: 255)
    static let headlight = Color(r: 255, g: 252, b: 0, a: 255)
    static let balloons = [Color(r: 255, g: 80, b: 110, a: 255), Color(r: 255, g: 204, b: 0, a: 255), Color(r: 80, g: 170, b: 255, a: 255)]
    static let string = Color(r: 120, g: 120, b: 130, a: 255)
    static let sleepInk = Color(r: 58, g: 74, b: 140, a: 255)
    static let halo = Color(r: 255, g: 255, b: 255, a: 255)

    /// What goes under the avatar in `circle` (the avatar's disc, in pixels).
    static func drawBehind(_ pose: Pose, around circle: Rect, into canvas: Canvas) {
        let (cx, cy, w) = (circle.center.x, circle.center.y, circle.width)
        switch pose {
        case .flying:
            let frame = Rect(x: cx - 0.68 * w, y: cy - 0.8 * w, width: 1.36 * w, height: 1.6 * w)
            canvas.fill(.roundedRect(frame, radius: 0.6 * w), paint: .solid(windowFrame))
            canvas.fill(.roundedRect(frame.outset(by: -0.1 * w), radius: 0.5 * w), paint: .solid(sky))
        case .birthday:
            let anchor = Point(cx - 0.3 * w, cy + 0.05 * w)
            let spots = [(-0.95, -0.95, 0), (-0.55, -1.2, 1), (-1.2, -0.5, 2)]
            for (dx, dy, colour) in spots {
                let center = Point(cx + dx * w, cy + dy * w)
                var thread = Path()
                thread.move(to: Point(center.x, center.y + 0.22 * w))
                thread.quad(control: Point((center.x + anchor.x) / 2 + 0.08 * w, (center.y + anchor.y) / 2), to: anchor)
                canvas.stroke(thread, style: StrokeStyle(width: max(0.6, 0.025 * w)), paint: .solid(string))
                canvas.fill(.ellipse(in: Rect(x: center.x - 0.18 * w, y: center.y - 0.22 * w, width: 0.36 * w, height: 0.44 * w)),
                            paint: .solid(balloons[colour]))
                canvas.fill(.polygon([Point(center.x, center.y + 0.2 * w), Point(center.x - 0.05 * w, center.y + 0.27 * w),
                                      Point(center.x + 0.05 * w, center.y + 0.27 * w)]), paint: .solid(balloons[colour]))
                canvas.fill(.ellipse(in: Rect(x: center.x - 0.1 * w, y: center.y - 0.15 * w, width: 0.08 * w, height: 0.12 * w)),
                            paint: .solid(Color(r: 255, g: 255, b: 255, a: 150)))
            }
        case .driving, .asleep, .standing:
            break
        }
    }

    /// What goes over the avatar in `circle`.
    static func drawInFront(_ pose: Pose, around circle: Rect, into canvas: Canvas) {
        let (cx, cy, w) = (circle.center.x, circle.center.y, circle.width)
        switch pose {
        case .driving:
            var cabin = Path()
            cabin.move(to: Point(cx - 0.55 * w, cy + 0.18 * w))
            cabin.line(to: Point(cx + 0.42 * w, cy + 0.18 * w))
            cabin.line(to: Point(cx + 0.62 * w, cy + 0.02 * w))
            cabin.line(to: Point(cx + 0.68 * w, cy + 0.18 * w))
            cabin.close()
            canvas.fill(cabin, paint: .solid(glass))
            let body = Rect(x: cx - 0.85 * w, y: cy + 0.16 * w, width: 1.7 * w, height: 0.36 * w)
            canvas.fill(.roundedRect(body, radius: 0.14 * w), paint: .solid(carBody))
            canvas.fill(.circle(center: Point(cx + 0.76 * w, cy + 0.27 * w), radius: 0.055 * w), paint: .solid(headlight))
            for x in [cx - 0.5 * w, cx + 0.5 * w] {
                canvas.fill(.circle(center: Point(x, cy + 0.52 * w), radius: 0.16 * w), paint: .solid(tyre))
                canvas.fill(.circle(center: Point(x, cy + 0.52 * w), radius: 0.065 * w), paint: .solid(hub))
            }
        case .asleep:
            for (dx, dy, size) in [(0.5, -0.45, 0.2), (0.78, -0.78, 0.28)] {
                let (x, y, s) = (cx + dx * w, cy + dy * w, size * w)
                var z = Path()
                z.move(to: Point(x, y))
                z.line(to: Point(x + s, y))
                z.line(to: Point(x, y + s))
                z.line(to: Point(x + s, y + s))
                canvas.stroke(z, style: StrokeStyle(width: max(1.5, 0.11 * w), join: .round, cap: .round), paint: .solid(halo))
                canvas.stroke(z, style: StrokeStyle(width: max(0.8, 0.055 * w), join: .round, cap: .round), paint: .solid(sleepInk))
            }
        case .flying, .birthday, .standing:
            break
        }
    }
}
