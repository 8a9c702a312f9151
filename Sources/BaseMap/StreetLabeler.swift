import Foundation
import GeoCore
import Raster

/// Street names along their lines: upright, repeated at a spacing, never overlapping each other.
/// Positions are measured along each street in world pixels from its first vertex, so every tile and
/// frame at a zoom proposes the same labels; candidates come from well beyond the view and are accepted in
/// one global order (main streets first, then source order), so neighbouring tiles agree.
struct StreetLabeler {
    /// Space kept between labels, in pixels.
    static let padding = 3.0

    let store: BaseMapStore
    let style: MapStyle
    let font: Font
    let view: MapView

    private struct Placed {
        let box: Rect
        let name: String
        let anchor: Point
    }

    func draw(into canvas: Canvas) {
        let size = style.labels.size.value(at: view.zoom) * view.scale
        let spacing = style.labels.spacing * view.scale
        let reach = 2 * (spacing + 40 * size) / view.pixelsPerMetre
        let table = store.streets
        let candidates = BaseMapStore.features(of: table, grid: store.streetGrid, in: view.mercatorBounds.expanded(by: reach))
            .filter { !table.names[$0].isEmpty && table.classes[$0] >= style.labels.minClass.rank }
            .sorted { (table.classes[$0], -$0) > (table.classes[$1], -$1) }
        var layouts: [String: TextLayout] = [:]
        var placed: [Placed] = []
        var glyphs = Path()
        for feature in candidates {
            let name = table.names[feature]
            guard let layout = layouts[name] ?? (try? font.layout(name, size: size)) else { continue }
            layouts[name] = layout
            for part in table.parts(of: feature) {
                let line = worldLine(table, part: part)
                for center in centers(length: line.length, advance: layout.advance, spacing: spacing) {
                    guard let label = place(layout, on: line, center: center, size: size) else { continue }
                    let clash = placed.contains { other in
                        other.box.outset(by: Self.padding).intersects(label.box)
                            || (other.name == name && (other.anchor - label.anchor).length < spacing / 2)
                    }
                    guard !clash else { continue }
                    placed.append(Placed(box: label.box, name: name, anchor: label.anchor))
                    glyphs.append(label.path)
                }
            }
        }
        guard !glyphs.isEmpty else { return }
        let haloWidth = style.labels.haloWidth * view.scale * 2
        canvas.stroke(glyphs, style: StrokeStyle(width: haloWidth, join: .round, cap: .round), paint: .solid(style.labels.halo))
        canvas.fill(glyphs, paint: .solid(style.labels.color))
    }

    /// Label centres along a line of `length`: the middle, then every `spacing` either side, where the
    /// whole label fits.
    private func centers(length: Double, advance: Double, spacing: Double) -> [Double] {
        let room = length / 2 - advance / 2 - Self.padding
        guard room >= 0 else { return [] }
        let steps = Int(room / spacing)
        return (-steps...steps).map { length / 2 + Double($0) * spacing }
    }

    /// A part in world pixels (origin-free), with cumulative lengths.
    private func worldLine(_ table: FeatureTable, part: Int) -> WorldLine {
        let k = view.pixelsPerMetre
        let points = table.points(ofPart: part).map { Point(table.xs[$0] * k, -table.ys[$0] * k) }
        return WorldLine(points: points)
    }

    /// The glyph outlines of one label centred at `center` along the line, in view pixels, with its box;
    /// nil where the line bends too much under it.
    private func place(_ layout: TextLayout, on line: WorldLine, center: Double, size: Double) -> (path: Path, box: Rect, anchor: Point)? {
        let start = center - layout.advance / 2
        let end = center + layout.advance / 2
        let reversed = (line.point(at: end) - line.point(at: start)).x < 0
        let offset = Point(-view.origin.x * view.pixelsPerMetre, view.origin.y * view.pixelsPerMetre)
        let maxTurn = style.labels.maxTurnDegrees * Double.pi / 180
        var path = Path()
        var box: Rect?
        var previousAngle: Double?
        for (index, glyph) in layout.glyphs.enumerated() {
            let advance = (index + 1 < layout.glyphs.count ? layout.glyphs[index + 1].x : layout.advance) - glyph.x
            let along = reversed ? end - glyph.x - advance / 2 : start + glyph.x + advance / 2
            var angle = line.angle(at: along)
            if reversed { angle += Double.pi }
            if let previousAngle, abs(remainder(angle - previousAngle, 2 * Double.pi)) > maxTurn { return nil }
            previousAngle = angle
            let position = line.point(at: along) + offset
            let transform = AffineTransform.translation(-advance / 2, size * 0.36)
                .then(.rotation(angle)).then(.translation(position.x, position.y))
            let outline = font.glyphPath(glyph.id, size: size).transformed(by: transform)
            if let bounds = outline.controlBounds { box = box.map { $0.union(bounds) } ?? bounds }
            path.append(outline)
        }
        guard let box else { return nil }
        return (path, box, line.point(at: center))
    }
}

/// A polyline in world pixels with cumulative lengths, for positions and directions along it.
struct WorldLine {
    let points: [Point]
    let distances: [Double]

    init(points: [Point]) {
        self.points = points
        var distances = [0.0]
        for index in points.indices.dropFirst() { distances.append(distances[index - 1] + (points[index] - points[index - 1]).length) }
        self.distances = distances
    }

    var length: Double { distances.last ?? 0 }

    private func segment(at distance: Double) -> Int {
        var low = 0
        var high = max(points.count - 2, 0)
        while low < high {
            let middle = (low + high + 1) / 2
            if distances[middle] <= distance { low = middle } else { high = middle - 1 }
        }
        return low
    }

    func point(at distance: Double) -> Point {
        let index = segment(at: distance)
        let span = distances[index + 1] - distances[index]
        let t = span > 0 ? min(max((distance - distances[index]) / span, 0), 1) : 0
        return points[index] + (points[index + 1] - points[index]) * t
    }

    func angle(at distance: Double) -> Double {
        let index = segment(at: distance)
        let d = points[index + 1] - points[index]
        return atan2(d.y, d.x)
    }
}

extension Rect {
    /// Whether the two share interior area.
    func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}
