import Foundation
import GeoCore
import Raster

/// A place name placed in a view: what it names, its box and its glyph outlines in view pixels, and the other
/// places inside its area it may move to when pins cover it (neighbourhoods).
public struct PlaceName: Sendable {
    public let name: String
    public let kind: PlaceKind
    public let box: Rect
    let glyphs: Path
    let color: Color
    let alternatives: [(box: Rect, glyphs: Path)]
}

/// Names of neighbourhoods (spaced capitals), parks and waters (italic, along the water's long axis), placed
/// before street names, which keep clear of them. Like street names, positions are fixed in world pixels at a
/// zoom and candidates come from beyond the view in one global order (waters, neighbourhoods, parks; larger
/// first), so every tile and frame at a zoom agrees on which names show. In a frame (`labelArea`), a name that
/// would be cut by the frame's edge is left out.
struct PlaceLabeler {
    /// How far beyond the view candidates are gathered, in pixels at the view's scale (a long name).
    static let reachPixels = 600.0

    let store: BaseMapStore
    let places: MapStyle.Places
    let font: Font
    let view: MapView
    /// The whole frame in view pixels, when the view is (a band of) a frame.
    let labelArea: Rect?


    /// The names that show in and around the view.
    func place() -> [PlaceName] {
        let k = view.pixelsPerMetre
        let reach = Self.reachPixels * view.scale / k
        let table = store.places
        let pointsPerMetre = k / view.scale
        let candidates = BaseMapStore.features(of: table, grid: store.placeGrid, in: view.mercatorBounds.expanded(by: reach)).filter { index in
            guard let kind = PlaceKind(rawValue: table.classes[index]) else { return false }
            let layer = places.layer(kind)
            return view.zoom >= layer.minZoom && view.zoom <= layer.maxZoom && table.values[index] * pointsPerMetre * pointsPerMetre >= layer.minAreaPoints
        }.sorted { a, b in
            let (ka, kb) = (Self.order(table.classes[a]), Self.order(table.classes[b]))
            return ka != kb ? ka < kb : (table.values[a] != table.values[b] ? table.values[a] > table.values[b] : a < b)
        }
        let offset = Point(-view.origin.x * k, view.origin.y * k)
        var placed: [PlaceName] = []
        var boxes: [Rect] = []
        for index in candidates {
            let kind = PlaceKind(rawValue: table.classes[index])!
            let layer = places.layer(kind)
            let part = table.points(ofPart: table.parts(of: index).lowerBound)
            let anchor = Point(table.xs[part.lowerBound] * k, -table.ys[part.lowerBound] * k) + offset
            let direction = Point(table.xs[part.lowerBound + 1] - table.xs[part.lowerBound], table.ys[part.lowerBound] - table.ys[part.lowerBound + 1])
            let text = layer.uppercase ? table.names[index].uppercased() : table.names[index]
            let angle = Self.readable(atan2(direction.y, direction.x))
            guard let label = outline(text, layer: layer, at: anchor, angle: angle) else { continue }
            let padded = label.box.outset(by: places.padding * view.scale)
            guard !boxes.contains(where: { $0.intersects(padded) }) else { continue }
            if let labelArea, !labelArea.contains(label.box) { continue }
            boxes.append(padded)
            let others = (part.lowerBound + 2..<part.upperBound).compactMap { point in
                outline(text, layer: layer, at: Point(table.xs[point] * k, -table.ys[point] * k) + offset, angle: angle)
            }.filter { other in labelArea.map { $0.contains(other.box) } ?? true }
            placed.append(PlaceName(name: table.names[index], kind: kind, box: label.box, glyphs: label.glyphs, color: layer.color,
                                    alternatives: others.map { ($0.box, $0.glyphs) }))
        }
        return placed
    }

    /// Where each name shows clear of `avoiding` (its own place, or the first of its alternatives that is clear
    /// of those and of the names before it), in order; names with no clear place are left out.
    func positions(_ placed: [PlaceName], avoiding: [Rect]) -> [(box: Rect, glyphs: Path, color: Color)] {
        var shown: [(box: Rect, glyphs: Path, color: Color)] = []
        let padding = places.padding * view.scale
        for name in placed {
            let options = [(name.box, name.glyphs)] + name.alternatives
            guard let clear = options.first(where: { option in
                !avoiding.contains { $0.intersects(option.0) } && !shown.contains { $0.box.outset(by: padding).intersects(option.0) }
            }) else { continue }
            shown.append((clear.0, clear.1, name.color))
        }
        return shown
    }

    /// Draws the names that touch the canvas, clear of `avoiding`: a halo under each, then the glyphs.
    func draw(_ placed: [PlaceName], into canvas: Canvas, avoiding: [Rect]) {
        let visible = Rect(x: 0, y: Double(canvas.originY), width: Double(view.width), height: Double(canvas.height))
        let haloWidth = places.haloWidth * view.scale * 2
        for name in positions(placed, avoiding: avoiding) where name.box.outset(by: haloWidth).intersects(visible) {
            canvas.stroke(name.glyphs, style: StrokeStyle(width: haloWidth, join: .round, cap: .round), paint: .solid(places.halo))
            canvas.fill(name.glyphs, paint: .solid(name.color))
        }
    }

    /// Waters first, then neighbourhoods, then parks.
    private static func order(_ kind: UInt8) -> Int {
        switch PlaceKind(rawValue: kind) {
        case .water: 0
        case .neighbourhood: 1
        case .park: 2
        case nil: 3
        }
    }

    /// An angle turned so that text along it reads left to right (within ±90°).
    static func readable(_ angle: Double) -> Double {
        var turned = remainder(angle, 2 * Double.pi)
        if turned > Double.pi / 2 { turned -= Double.pi }
        if turned <= -Double.pi / 2 { turned += Double.pi }
        return turned
    }

    /// The glyph outlines of `text` centred on `anchor` and turned by `angle`, with the layer's letter spacing
    /// and slant, and the box that holds them; nil when the text has no glyphs.
    private func outline(_ text: String, layer: MapStyle.PlaceLayer, at anchor: Point, angle: Double) -> (glyphs: Path, box: Rect)? {
        let size = layer.size.value(at: view.zoom) * view.scale
        guard let layout = try? font.layout(text, size: size), !layout.glyphs.isEmpty else { return nil }
        let spacing = layer.letterSpacing * size
        let width = layout.advance + spacing * Double(layout.glyphs.count - 1)
        let height = layout.ascent + layout.descent
        let baseline = (layout.ascent - layout.descent) / 2
        let slant = AffineTransform(a: 1, b: 0, c: -layer.italic, d: 1, tx: 0, ty: 0)
        let place = AffineTransform.rotation(angle).then(.translation(anchor.x, anchor.y))
        var glyphs = Path()
        for (index, glyph) in layout.glyphs.enumerated() {
            let x = glyph.x + spacing * Double(index) - width / 2
            glyphs.append(font.glyphPath(glyph.id, size: size).transformed(by: slant.then(.translation(x, baseline + glyph.y)).then(place)))
        }
        let corners = [Point(-width / 2, -height / 2), Point(width / 2, -height / 2), Point(-width / 2, height / 2), Point(width / 2, height / 2)]
            .map { place.apply($0) }
        let (xs, ys) = (corners.map(\.x), corners.map(\.y))
        let box = Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        return (glyphs, box)
    }
}
