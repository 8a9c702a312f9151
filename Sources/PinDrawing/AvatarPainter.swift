import Foundation
import MapScene
import Raster

/// Draws a cartoon avatar from its look with the rasterizer's paths (no images): a friendly head (hair, ears,
/// face, eyes, brows, nose, mouth, beard, cheeks) on shoulders in the person's top, as a round badge inside the
/// pin's ring, or standing on the map with a ground shadow. Shapes are in head units, so it stays crisp at any
/// scale; the same look always gives the same pixels.
struct AvatarPainter {
    let look: AvatarLook
    private let skin: Color
    private let hair: Color
    private let top: Color
    static let ink = Color(r: 43, g: 36, b: 38, a: 255)
    static let mouthInk = Color(r: 110, g: 36, b: 40, a: 255)
    static let blush = Color(r: 255, g: 110, b: 130, a: 60)
    static let denim = Color(r: 52, g: 70, b: 107, a: 255)
    static let ground = Color(r: 0, g: 0, b: 0, a: 70)

    init(look: AvatarLook) {
        self.look = look
        skin = (try? Color(hex: look.skin)) ?? Color(r: 217, g: 163, b: 122, a: 255)
        hair = (try? Color(hex: look.hairColor)) ?? Self.ink
        top = (try? Color(hex: look.top)) ?? Color(r: 138, g: 141, b: 145, a: 255)
    }

    static func shade(_ color: Color, _ factor: Double) -> Color {
        func channel(_ value: UInt8) -> UInt8 { UInt8(min(255, (Double(value) * factor).rounded())) }
        return Color(r: channel(color.r), g: channel(color.g), b: channel(color.b), a: color.a)
    }

    /// A colour mixed toward white by `amount` (0…1).
    static func light(_ color: Color, _ amount: Double) -> Color {
        func channel(_ value: UInt8) -> UInt8 { UInt8((Double(value) + (255 - Double(value)) * amount).rounded()) }
        return Color(r: channel(color.r), g: channel(color.g), b: channel(color.b), a: color.a)
    }

    /// The badge: a light disc of `background`, shoulders and neck, then the head, all inside `circle`.
    func drawBadge(in circle: Rect, background: Color, into canvas: Canvas) {
        let (cx, cy, r) = (circle.center.x, circle.center.y, circle.width / 2)
        canvas.fill(.ellipse(in: circle), paint: .solid(Self.light(background, 0.55)))
        let u = circle.width * 0.2
        let head = Point(cx, cy - 0.1 * circle.height)
        if look.hair == .long { drawBackHair(head, u, into: canvas) }
        let shoulderY = cy + 0.34 * circle.height
        let neck = Rect(x: cx - 0.42 * u, y: head.y + 0.8 * u, width: 0.84 * u, height: shoulderY - head.y - 0.6 * u)
        canvas.fill(.rect(neck), paint: .solid(Self.shade(skin, 0.9)))
        let half = asin(min(1, (shoulderY - cy) / r))
        var shoulders = Path()
        shoulders.move(to: Point(cx - r * cos(half), shoulderY))
        shoulders.quad(control: Point(cx - 1.3 * u, shoulderY - 0.45 * u), to: Point(cx - 0.5 * u, shoulderY - 0.5 * u))
        shoulders.line(to: Point(cx + 0.5 * u, shoulderY - 0.5 * u))
        shoulders.quad(control: Point(cx + 1.3 * u, shoulderY - 0.45 * u), to: Point(cx + r * cos(half), shoulderY))
        let steps = 24
        for step in 1...steps {
            let angle = half + (Double.pi - 2 * half) * Double(step) / Double(steps)
            shoulders.line(to: Point(cx + r * cos(angle), cy + r * sin(angle)))
        }
        shoulders.close()
        canvas.fill(shoulders, paint: .solid(top))
        canvas.fill(.polygon([Point(cx - 0.42 * u, shoulderY - 0.5 * u), Point(cx + 0.42 * u, shoulderY - 0.5 * u), Point(cx, shoulderY + 0.25 * u)]),
                    paint: .solid(Self.shade(skin, 0.9)))
        drawHead(head, u, into: canvas)
    }

    /// The figure standing in `box`: feet on a ground shadow at its bottom (yellow when selected), legs, a
    /// torso in the top's colour with arms, and the head.
    func drawStanding(in box: Rect, selected: Color?, into canvas: Canvas) {
        let (cx, h) = (box.center.x, box.height)
        let groundY = box.maxY - 0.06 * h
        canvas.fill(.ellipse(in: Rect(x: cx - 0.3 * h, y: groundY - 0.05 * h, width: 0.6 * h, height: 0.1 * h)), paint: .solid(selected ?? Self.ground))
        for side in [-1.0, 1.0] {
            canvas.fill(.roundedRect(Rect(x: cx + side * 0.085 * h - 0.055 * h, y: groundY - 0.3 * h, width: 0.11 * h, height: 0.28 * h), radius: 0.04 * h),
                        paint: .solid(Self.denim))
            canvas.fill(.roundedRect(Rect(x: cx + side * 0.1 * h - 0.07 * h, y: groundY - 0.05 * h, width: 0.14 * h, height: 0.06 * h), radius: 0.03 * h),
                        paint: .solid(Self.ink))
            canvas.fill(.roundedRect(Rect(x: cx + side * 0.2 * h - 0.045 * h, y: groundY - 0.55 * h, width: 0.09 * h, height: 0.24 * h), radius: 0.045 * h),
                        paint: .solid(Self.shade(top, 0.85)))
            canvas.fill(.circle(center: Point(cx + side * 0.2 * h, groundY - 0.3 * h), radius: 0.045 * h), paint: .solid(skin))
        }
        canvas.fill(.roundedRect(Rect(x: cx - 0.17 * h, y: groundY - 0.58 * h, width: 0.34 * h, height: 0.32 * h), radius: 0.08 * h), paint: .solid(top))
        let u = 0.14 * h
        let head = Point(cx, groundY - 0.58 * h - 1.05 * u)
        if look.hair == .long { drawBackHair(head, u, into: canvas) }
        drawHead(head, u, into: canvas)
    }

    private func drawBackHair(_ c: Point, _ u: Double, into canvas: Canvas) {
        canvas.fill(.roundedRect(Rect(x: c.x - 1.15 * u, y: c.y - 0.9 * u, width: 2.3 * u, height: 2.4 * u), radius: 0.7 * u), paint: .solid(hair))
    }

    /// The head around `c`, one unit `u` being half the face's width.
    private func drawHead(_ c: Point, _ u: Double, into canvas: Canvas) {
        func p(_ x: Double, _ y: Double) -> Point { Point(c.x + x * u, c.y + y * u) }
        func oval(_ x: Double, _ y: Double, _ rx: Double, _ ry: Double) -> Path {
            .ellipse(in: Rect(x: c.x + (x - rx) * u, y: c.y + (y - ry) * u, width: 2 * rx * u, height: 2 * ry * u))
        }
        func line(_ points: [Point], width: Double, color: Color) {
            var path = Path()
            path.move(to: points[0])
            if points.count == 3 { path.quad(control: points[1], to: points[2]) } else { points.dropFirst().forEach { path.line(to: $0) } }
            canvas.stroke(path, style: StrokeStyle(width: width * u, join: .round, cap: .round), paint: .solid(color))
        }
        if look.hair == .wavy { for side in [-1.0, 1.0] { canvas.fill(oval(side * 0.95, -0.2, 0.38, 0.5), paint: .solid(hair)) } }
        for side in [-1.0, 1.0] {
            canvas.fill(oval(side * 0.98, 0.08, 0.2, 0.28), paint: .solid(skin))
            canvas.fill(oval(side * 1.0, 0.08, 0.09, 0.15), paint: .solid(Self.shade(skin, 0.85)))
        }
        canvas.fill(oval(0, 0, 1, 1.15), paint: .solid(skin))
        if look.facialHair != .none {
            var beard = Path()
            let outer = (0...16).map { step -> Point in let a = Double.pi * (0.06 + 0.88 * Double(step) / 16); return p(1.02 * cos(a), 1.17 * sin(a)) }
            let inner = (0...16).reversed().map { step -> Point in let a = Double.pi * (0.1 + 0.8 * Double(step) / 16); return p(0.72 * cos(a), 0.3 + 0.55 * sin(a)) }
            beard.move(to: outer[0])
            (outer.dropFirst() + inner).forEach { beard.line(to: $0) }
            beard.close()
            canvas.fill(beard, paint: .solid(hair), opacity: look.facialHair == .stubble ? 0.3 : 1)
            if look.facialHair == .shortBeard { canvas.fill(oval(0, 0.47, 0.38, 0.11), paint: .solid(hair)) }
        }
        for side in [-1.0, 1.0] { canvas.fill(oval(side * 0.58, 0.38, 0.2, 0.14), paint: .solid(Self.blush)) }
        for side in [-1.0, 1.0] {
            switch look.eyes {
            case .round:
                canvas.fill(oval(side * 0.38, 0, 0.21, 0.19), paint: .solid(.white))
                canvas.fill(oval(side * 0.38, 0.03, 0.12, 0.13), paint: .solid(Self.ink))
                canvas.fill(oval(side * 0.34, -0.03, 0.04, 0.04), paint: .solid(.white))
            case .happy:
                line([p(side * 0.38 - 0.17, 0.06), p(side * 0.38, -0.14), p(side * 0.38 + 0.17, 0.06)], width: 0.09, color: Self.ink)
            }
            line([p(side * 0.58, -0.34), p(side * 0.4, -0.44), p(side * 0.2, -0.36)], width: 0.1, color: Self.shade(hair, 0.9))
        }
        line([p(-0.09, 0.26), p(0, 0.33), p(0.09, 0.26)], width: 0.07, color: Self.shade(skin, 0.75))
        switch look.mouth {
        case .smile:
            line([p(-0.3, 0.58), p(0, 0.82), p(0.3, 0.58)], width: 0.09, color: Self.mouthInk)
        case .grin:
            var mouth = Path()
            mouth.move(to: p(-0.38, 0.55))
            mouth.line(to: p(0.38, 0.55))
            mouth.quad(control: p(0, 1.0), to: p(-0.38, 0.55))
            mouth.close()
            canvas.fill(mouth, paint: .solid(Self.mouthInk))
            canvas.fill(.polygon([p(-0.34, 0.56), p(0.34, 0.56), p(0.28, 0.64), p(-0.28, 0.64)]), paint: .solid(.white))
        case .open:
            canvas.fill(oval(0, 0.64, 0.2, 0.16), paint: .solid(Self.mouthInk))
            canvas.fill(oval(0, 0.72, 0.12, 0.07), paint: .solid(Color(r: 240, g: 120, b: 130, a: 255)))
        }
        drawFrontHair(p, into: canvas)
    }

    private func drawFrontHair(_ p: (Double, Double) -> Point, into canvas: Canvas) {
        var cap = Path()
        let fringe = look.hair == .buzz ? -0.62 : -0.48
        cap.move(to: p(-1.05, -0.05))
        cap.cubic(control1: p(-1.15, -1.45), control2: p(1.15, -1.45), to: p(1.05, -0.05))
        cap.quad(control: p(0.95, fringe - 0.1), to: p(0.3, fringe))
        cap.quad(control: p(-0.35, fringe - 0.12), to: p(-0.8, fringe + 0.08))
        cap.quad(control: p(-1.0, fringe + 0.2), to: p(-1.05, -0.05))
        cap.close()
        canvas.fill(cap, paint: .solid(hair), opacity: look.hair == .buzz ? 0.85 : 1)
        let unit = p(1, 0).x - p(0, 0).x
        func circle(_ x: Double, _ y: Double, _ r: Double) { canvas.fill(.circle(center: p(x, y), radius: r * unit), paint: .solid(hair)) }
        switch look.hair {
        case .curly:
            for step in 0...8 {
                let angle = Double.pi * (1.05 + 0.9 * Double(step) / 8)
                circle(1.0 * cos(angle), 1.05 * sin(angle) - 0.1, 0.3)
            }
        case .bun: circle(0, -1.4, 0.4)
        case .long:
            for side in [-1.0, 1.0] {
                let (top, bottom) = (p(side * 0.98 - 0.2, -0.35), p(side * 0.98 + 0.2, 1.0))
                canvas.fill(.roundedRect(Rect(x: min(top.x, bottom.x), y: top.y, width: abs(bottom.x - top.x), height: bottom.y - top.y), radius: 0.2 * unit),
                            paint: .solid(hair))
            }
        case .wavy: for side in [-1.0, 1.0] { circle(side * 0.7, -0.8, 0.32) }
        case .short, .buzz: break
        }
    }
}
