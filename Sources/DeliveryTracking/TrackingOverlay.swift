import Foundation
import GeoCore
import Raster

/// The marks the delivery app draws over its snapshot, as data (`styles/tracking-overlay.json`): the red line,
/// the black teardrop pins (home with a house, the store with a storefront) and the Dasher's red circle with its
/// white ring, halo and car. Sizes are in points; a style is only made by `load`, which checks every field.
public struct TrackingOverlayStyle: Sendable {
    public static let file = "styles/tracking-overlay.json"
    static let sizeRange: ClosedRange<Double> = 0...100

    /// The marks' looks with their inks as `Ink`: hex text in the file, `Color` once checked.
    struct Line<Ink: Sendable>: Sendable { let color: Ink; let width: Double }
    struct Pin<Ink: Sendable>: Sendable { let color, glyph, shadow: Ink; let radius, height, shadowBlur: Double }
    struct Dasher<Ink: Sendable>: Sendable { let color, ring, glyph: Ink; let diameter, ringWidth, halo, haloOpacity: Double }

    let line: Line<Color>
    let pin: Pin<Color>
    let dasher: Dasher<Color>

    private struct File: Decodable {
        let line: Line<String>
        let pin: Pin<String>
        let dasher: Dasher<String>
    }

    /// Reads and checks the file under `dataDirectory`; an error names the field and what it allows.
    public static func load(dataDirectory: URL) throws(DataFileError) -> TrackingOverlayStyle {
        let style: File
        do {
            style = try JSONDecoder().decode(File.self, from: Data(contentsOf: dataDirectory.appendingPathComponent(file)))
        } catch {
            throw DataFileError.describing(error, file: file)
        }
        let sizes = [("line.width", style.line.width), ("pin.radius", style.pin.radius), ("pin.height", style.pin.height),
                     ("pin.shadowBlur", style.pin.shadowBlur), ("dasher.diameter", style.dasher.diameter),
                     ("dasher.ringWidth", style.dasher.ringWidth), ("dasher.halo", style.dasher.halo)]
        for (field, value) in sizes where !(sizeRange.contains(value)) {
            throw DataFileError(file: file, path: field, message: "must be \(sizeRange.lowerBound) … \(sizeRange.upperBound) pt, got \(value)")
        }
        guard style.pin.height > 2 * style.pin.radius else {
            throw DataFileError(file: file, path: "pin.height", message: "must exceed the pin's diameter (\(2 * style.pin.radius) pt)")
        }
        guard (0...1).contains(style.dasher.haloOpacity) else {
            throw DataFileError(file: file, path: "dasher.haloOpacity", message: "must be 0 … 1, got \(style.dasher.haloOpacity)")
        }
        func color(_ field: String, _ hex: String) throws(DataFileError) -> Color {
            do { return try Color(hex: hex) } catch { throw DataFileError(file: file, path: field, message: error.description) }
        }
        let (line, pin, dasher) = (style.line, style.pin, style.dasher)
        return TrackingOverlayStyle(
            line: Line(color: try color("line.color", line.color), width: line.width),
            pin: Pin(color: try color("pin.color", pin.color), glyph: try color("pin.glyph", pin.glyph), shadow: try color("pin.shadow", pin.shadow),
                     radius: pin.radius, height: pin.height, shadowBlur: pin.shadowBlur),
            dasher: Dasher(color: try color("dasher.color", dasher.color), ring: try color("dasher.ring", dasher.ring),
                           glyph: try color("dasher.glyph", dasher.glyph), diameter: dasher.diameter, ringWidth: dasher.ringWidth,
                           halo: dasher.halo, haloOpacity: dasher.haloOpacity))
    }

    /// Draws `layout`'s marks on `canvas` (its snapshot, `layout.scale` pixels a point): the line, the store's pin,
    /// home's pin, then the Dasher above them.
    public func draw(_ layout: TrackingLayout, on canvas: Canvas) {
        let scale = layout.scale
        func pixel(_ point: ScreenPoint) -> Point { Point(point.x * scale, point.y * scale) }
        if layout.line.count >= 2 {
            var path = Path()
            path.addPolyline(layout.line.map(pixel), closed: false)
            canvas.stroke(path, style: StrokeStyle(width: line.width * scale), paint: .solid(line.color))
        }
        drawPin(at: pixel(layout.store), scale: scale, glyph: Self.storefront, on: canvas)
        drawPin(at: pixel(layout.home), scale: scale, glyph: Self.house, on: canvas)
        if let dasher = layout.dasher { drawDasher(at: pixel(dasher), scale: scale, on: canvas) }
    }

    /// A teardrop whose tip is on `tip`: a circle joined to the tip by its two tangents, the glyph in the circle.
    private func drawPin(at tip: Point, scale: Double, glyph: (Point, Double) -> (shape: Path, cut: Path), on canvas: Canvas) {
        let radius = pin.radius * scale
        let center = Point(tip.x, tip.y - (pin.height * scale - radius))
        let reach = acos(radius / (tip.y - center.y))
        let steps = 64
        let outline = (0...steps).map { step -> Point in
            let angle = Double.pi / 2 + reach + (2 * .pi - 2 * reach) * Double(step) / Double(steps)
            return Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
        }
        let drop = Path.polygon([tip] + outline)
        canvas.drawShadow(of: drop, color: pin.shadow, sigma: pin.shadowBlur * scale, offset: Point(0, scale))
        canvas.fill(drop, paint: .solid(pin.color))
        let (shape, cut) = glyph(center, radius)
        canvas.fill(shape, paint: .solid(pin.glyph))
        canvas.fill(cut, paint: .solid(pin.color))
    }

    /// The Dasher: a soft halo, a white ring, the red disc and a white car, never rotated.
    private func drawDasher(at center: Point, scale: Double, on canvas: Canvas) {
        let radius = dasher.diameter / 2 * scale
        let red = dasher.color
        canvas.fill(.circle(center: center, radius: radius + (dasher.ringWidth + dasher.halo) * scale), paint: .solid(red.withOpacity(dasher.haloOpacity)))
        canvas.fill(.circle(center: center, radius: radius + dasher.ringWidth * scale), paint: .solid(dasher.ring))
        canvas.fill(.circle(center: center, radius: radius), paint: .solid(red))
        let unit = radius * 0.5
        var car = Path.roundedRect(Rect(x: center.x - unit, y: center.y - 0.1 * unit, width: 2 * unit, height: 0.55 * unit), radius: 0.15 * unit)
        car.append(.roundedRect(Rect(x: center.x - 0.55 * unit, y: center.y - 0.5 * unit, width: 1.1 * unit, height: 0.5 * unit), radius: 0.2 * unit))
        canvas.fill(car, paint: .solid(dasher.glyph))
        for side in [-0.55, 0.55] {
            canvas.fill(.circle(center: Point(center.x + side * unit, center.y + 0.45 * unit), radius: 0.2 * unit), paint: .solid(dasher.glyph))
        }
    }

    /// A house in a circle of `radius` around `center`: roof and walls, the door cut out.
    static func house(_ center: Point, _ radius: Double) -> (shape: Path, cut: Path) {
        let g = radius * 0.6
        var shape = Path.polygon([Point(center.x - g, center.y - 0.05 * g), Point(center.x, center.y - g), Point(center.x + g, center.y - 0.05 * g)])
        shape.append(.rect(Rect(x: center.x - 0.7 * g, y: center.y - 0.1 * g, width: 1.4 * g, height: 0.85 * g)))
        return (shape, .rect(Rect(x: center.x - 0.18 * g, y: center.y + 0.3 * g, width: 0.36 * g, height: 0.45 * g)))
    }

    /// A storefront in a circle of `radius` around `center`: an awning over the front, the door cut out.
    static func storefront(_ center: Point, _ radius: Double) -> (shape: Path, cut: Path) {
        let g = radius * 0.6
        var shape = Path.rect(Rect(x: center.x - g, y: center.y - 0.8 * g, width: 2 * g, height: 0.45 * g))
        shape.append(.rect(Rect(x: center.x - 0.8 * g, y: center.y - 0.3 * g, width: 1.6 * g, height: 1.05 * g)))
        return (shape, .rect(Rect(x: center.x - 0.2 * g, y: center.y + 0.2 * g, width: 0.4 * g, height: 0.55 * g)))
    }
}

extension TrackingOverlayStyle.Line: Decodable where Ink: Decodable {}
extension TrackingOverlayStyle.Pin: Decodable where Ink: Decodable {}
extension TrackingOverlayStyle.Dasher: Decodable where Ink: Decodable {}
