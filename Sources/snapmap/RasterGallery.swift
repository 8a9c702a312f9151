import Foundation
import Raster

/// Test scenes for a person to look at: every fill rule, join, cap and width, hairlines, curves, text,
/// an avatar with its shadow and a stack of translucent layers.
enum RasterGallery {
    static let paper = Color(r: 242, g: 239, b: 230)
    static let ink = Color(r: 0, g: 0, b: 0)
    static let accent = Color(r: 14, g: 173, b: 255)

    /// Every scene by file name.
    static func scenes() throws -> [(name: String, canvas: Canvas)] {
        [("stars.png", try stars()), ("strokes.png", try strokes()), ("hairlines.png", try hairlines()),
         ("curves.png", try curves()), ("text.png", try text()), ("avatar.png", try avatar()), ("layers.png", try layers())]
    }

    static func star(center: Point, radius: Double) -> Path {
        .polygon((0..<5).map { index in
            let angle = -Double.pi / 2 + Double(index) * 4 * Double.pi / 5
            return Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
        })
    }

    static func stars() throws -> Canvas {
        let canvas = try Canvas(width: 520, height: 260, background: paper)
        canvas.fill(star(center: Point(130, 135), radius: 110), paint: .solid(accent), rule: .nonZero)
        canvas.fill(star(center: Point(390, 135), radius: 110), paint: .solid(accent), rule: .evenOdd)
        return canvas
    }

    static func strokes() throws -> Canvas {
        let canvas = try Canvas(width: 900, height: 620, background: paper)
        let joins: [StrokeStyle.Join] = [.miter, .round, .bevel]
        let caps: [StrokeStyle.Cap] = [.butt, .round, .square]
        for (row, width) in [2.0, 8.0, 20.0].enumerated() {
            for (column, (join, cap)) in zip(joins, caps).enumerated() {
                let left = 40 + Double(column) * 290
                let top = 50 + Double(row) * 190
                var path = Path()
                path.addPolyline([Point(left, top + 110), Point(left + 60, top), Point(left + 120, top + 110),
                                  Point(left + 150, top + 30), Point(left + 230, top + 60)], closed: false)
                canvas.stroke(path, style: StrokeStyle(width: width, join: join, cap: cap), paint: .solid(ink.withOpacity(0.85)))
                canvas.stroke(path, style: StrokeStyle(width: 1, join: .round, cap: .butt), paint: .solid(accent))
            }
        }
        return canvas
    }

    static func hairlines() throws -> Canvas {
        let canvas = try Canvas(width: 520, height: 300, background: .white)
        for (index, width) in [0.1, 0.25, 0.5, 0.75, 1.0, 1.5].enumerated() {
            var path = Path()
            let y = 30 + Double(index) * 45
            path.addPolyline([Point(20, y), Point(500, y + 18)], closed: false)
            canvas.stroke(path, style: StrokeStyle(width: width, cap: .butt), paint: .solid(ink))
        }
        return canvas
    }

    static func curves() throws -> Canvas {
        let canvas = try Canvas(width: 520, height: 300, background: .white)
        var path = Path()
        path.move(to: Point(30, 250))
        path.cubic(control1: Point(120, -40), control2: Point(260, 340), to: Point(490, 60))
        canvas.stroke(path, style: StrokeStyle(width: 6), paint: .solid(accent))
        var quad = Path()
        quad.move(to: Point(30, 150))
        quad.quad(control: Point(260, 330), to: Point(490, 150))
        canvas.stroke(quad, style: StrokeStyle(width: 2), paint: .solid(ink))
        canvas.fill(.roundedRect(Rect(x: 200, y: 20, width: 120, height: 44), radius: 22), paint: .solid(Color(r: 255, g: 252, b: 0)))
        return canvas
    }

    static func text() throws -> Canvas {
        let canvas = try Canvas(width: 700, height: 420, background: .white)
        let bold = try InterFont.bold.load()
        let regular = try InterFont.regular.load()
        var baseline = 40.0
        for size in [10.0, 13, 17, 26, 39, 60] {
            let layout = try bold.layout("Jordan · 2m  AV Wa", size: size)
            if let box = layout.inkBounds(at: Point(20, baseline)) {
                canvas.stroke(.rect(box), style: StrokeStyle(width: 1, join: .miter, cap: .butt), paint: .solid(accent.withOpacity(0.5)))
            }
            canvas.drawText(layout, at: Point(20, baseline), color: ink)
            baseline += size * 1.35 + 8
        }
        canvas.drawText(try regular.layout("Inter Regular: secondary grey #8A8D91", size: 18), at: Point(20, baseline + 10),
                        color: Color(r: 138, g: 141, b: 145))
        return canvas
    }

    static func avatar() throws -> Canvas {
        let canvas = try Canvas(width: 300, height: 300, background: paper)
        let side = 32
        var pixels: [UInt8] = []
        for y in 0..<side {
            for x in 0..<side {
                let stripe = (x / 4 + y / 4) % 2 == 0
                pixels += stripe ? [14, 173, 255, 255] : [255, 252, 0, 255]
            }
        }
        let image = try Image(width: side, height: side, straightRGBA: pixels)
        let ring = Rect(x: 78, y: 70, width: 144, height: 144)
        canvas.drawShadow(of: .ellipse(in: ring), color: Color(r: 0, g: 0, b: 0, a: 90), sigma: 8, offset: Point(0, 6))
        canvas.fill(.ellipse(in: ring), paint: .solid(.white))
        canvas.drawImage(image, in: ring.outset(by: -9), clipToCircle: true)
        return canvas
    }

    static func layers() throws -> Canvas {
        let canvas = try Canvas(width: 520, height: 300, background: .white)
        let colors = [Color(r: 242, g: 60, b: 87), Color(r: 60, g: 194, b: 138), accent, Color(r: 160, g: 93, b: 205)]
        for index in 0..<24 {
            let color = colors[index % colors.count].withOpacity(0.18)
            canvas.fill(.circle(center: Point(80 + Double(index) * 15, 150 + 60 * sin(Double(index) / 3)), radius: 70), paint: .solid(color))
        }
        let gradient = try RadialGradient(center: Point(430, 80), radius: 70, stops: [
            (0, Color(r: 255, g: 0, b: 0, a: 220)), (0.4, Color(r: 255, g: 165, b: 0, a: 160)),
            (0.7, Color(r: 255, g: 252, b: 0, a: 90)), (1, Color(r: 135, g: 206, b: 250, a: 0)),
        ])
        canvas.fill(.circle(center: Point(430, 80), radius: 70), paint: .radialGradient(gradient))
        return canvas
    }
}
