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
    /// How far beyond the view candidates are gathered, in text sizes (a long street name), plus half the spacing.
    static let reachInEms = 30.0
    /// The collision grid's cell, in pixels (MapLibre's GridIndex uses cells of this order).
    static let gridCell = 64.0

    let store: BaseMapStore
    let style: MapStyle
    let font: Font
    let view: MapView
    /// Boxes names must keep clear of (the place names; in a frame also the credit's plate and the bottom inset), in view pixels.
    let obstacles: [Rect]
    /// The whole frame in view pixels, when the view is (a band of) a frame: names it would cut are left out.
    let labelArea: Rect?

    /// The names that show, in placement order: each label with the layout of its text.
    func labels() -> [(label: Label, layout: TextLayout)] {
        let size = style.labels.size.value(at: view.zoom) * view.scale
        let spacing = style.labels.spacing * view.scale
        let reach = (Self.reachInEms * size + spacing / 2) / view.pixelsPerMetre
        let table = store.streets
        let candidates = BaseMapStore.features(of: table, grid: store.streetGrid, in: view.mercatorBounds.outset(by: reach))
            .filter { !table.names[$0].isEmpty && table.classes[$0] >= style.labels.minClass.rank }
            .sorted { (table.classes[$0], -$0) > (table.classes[$1], -$1) }
        var layouts: [String: TextLayout] = [:]
        let viewRect = Rect(x: 0, y: 0, width: Double(view.width), height: Double(view.height))
        var placed = RectIndex(extent: viewRect.outset(by: Self.reachInEms * size + spacing / 2), cellSize: Self.gridCell)
        for obstacle in obstacles { placed.append(obstacle) }
        var anchorsByName: [String: [Point]] = [:]
        var shown: [(label: Label, layout: TextLayout)] = []
        for feature in candidates {
            let name = table.names[feature]
            guard let layout = layouts[name] ?? (try? font.layout(name, size: size)) else { continue }
            layouts[name] = layout
            for part in table.parts(of: feature) {
                let line = worldLine(table, part: part)
                for center in centers(length: line.length, advance: layout.advance, spacing: spacing) {
                    guard let label = place(layout, on: line, center: center, size: size) else { continue }
                    let padded = label.box.outset(by: Self.padding)
                    let overlaps = placed.intersects(padded)
                    let repeats = anchorsByName[name, default: []].contains { ($0 - label.anchor).length < spacing / 2 }
                    guard !overlaps, !repeats, labelArea?.contains(label.box) ?? true else { continue }
                    anchorsByName[name, default: []].append(label.anchor)
                    placed.append(label.box)
                    shown.append((label, layout))
                }
            }
        }
        return shown
    }

    func draw(into canvas: Canvas) {
        let size = style.labels.size.value(at: view.zoom) * view.scale
        let haloWidth = style.labels.haloWidth * view.scale * 2
        let visible = Rect(x: 0, y: 0, width: Double(view.width), height: Double(view.height))
        var glyphs = Path()
        for (label, layout) in labels() where label.box.outset(by: haloWidth).overlaps(visible) {
            glyphs.append(outline(of: label, layout: layout, size: size))
        }
        guard !glyphs.isEmpty else { return }
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

    /// One label laid along a line: where each glyph's centre goes and its angle, in view pixels, and the
    /// box that holds the glyphs' cells.
    struct Label {
        var centres: [Point] = []
        var angles: [Double] = []
        var box = Rect(x: 0, y: 0, width: 0, height: 0)
        var anchor = Point(0, 0)
    }

    /// Lays `layout` centred at `center` along the line; nil where the line bends too much under it.
    private func place(_ layout: TextLayout, on line: WorldLine, center: Double, size: Double) -> Label? {
        let start = center - layout.advance / 2
        let end = center + layout.advance / 2
        let reversed = (line.point(at: end) - line.point(at: start)).x < 0
        let offset = Point(-view.origin.x * view.pixelsPerMetre, view.origin.y * view.pixelsPerMetre)
        let maxTurn = style.labels.maxTurnDegrees * Double.pi / 180
        let halfHeight = (layout.ascent + layout.descent) / 2
        var label = Label()
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (index, glyph) in layout.glyphs.enumerated() {
            let advance = (index + 1 < layout.glyphs.count ? layout.glyphs[index + 1].x : layout.advance) - glyph.x
            let along = reversed ? end - glyph.x - advance / 2 : start + glyph.x + advance / 2
            var angle = line.angle(at: along)
            if reversed { angle += Double.pi }
            if let previous = label.angles.last, abs(remainder(angle - previous, 2 * Double.pi)) > maxTurn { return nil }
            let centre = line.point(at: along) + offset
            label.centres.append(centre)
            label.angles.append(angle)
            let reach = (advance * advance / 4 + halfHeight * halfHeight).squareRoot()
            minX = min(minX, centre.x - reach); maxX = max(maxX, centre.x + reach)
            minY = min(minY, centre.y - reach); maxY = max(maxY, centre.y + reach)
        }
        guard minX.isFinite else { return nil }
        label.box = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        label.anchor = line.point(at: center)
        return label
    }

    /// The glyph outlines of a placed label, each rotated about its cell's centre onto the line.
    private func outline(of label: Label, layout: TextLayout, size: Double) -> Path {
        var path = Path()
        let baselineShift = size * 0.36
        for (index, glyph) in layout.glyphs.enumerated() {
            let advance = (index + 1 < layout.glyphs.count ? layout.glyphs[index + 1].x : layout.advance) - glyph.x
            let centre = label.centres[index]
            let transform = AffineTransform.translation(-advance / 2, baselineShift)
                .then(.rotation(label.angles[index])).then(.translation(centre.x, centre.y))
            path.append(font.glyphPath(glyph.id, size: size).transformed(by: transform))
        }
        return path
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

    /// Whether `other` lies wholly inside this rectangle.
    func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }
}
