import Foundation
import GeoCore
import Raster

/// A place name placed in a view: what it names, its box and its glyph outlines in view pixels, and the other
/// places inside its area it may move to when pins cover it (neighbourhoods).
public struct PlaceName: Sendable {
    public let name: String
    public let kind: PlaceKind
    let outline: NameOutline
    let alternatives: [NameOutline]
    let color: Color

    public var box: Rect { outline.box }

    /// Its own place (option 0) or one of its alternatives.
    func outline(_ option: Int) -> NameOutline { option == 0 ? outline : alternatives[option - 1] }
}

/// Where a place name shows in a frame: which name (its index among the frame's names) and which of its places
/// (0 its own, then its alternatives in order).
public struct NamePlacement: Hashable, Sendable {
    public let name: Int
    public let option: Int
}

/// Where a name's text goes: its shaped text, centre, angle and box (with the mark it labels, for a station); the
/// glyph outlines are made only for the names that are drawn.
struct NameOutline: Sendable {
    let layout: TextLayout
    let spacing: Double
    let italic: Double
    let anchor: Point
    let angle: Double
    let box: Rect

    init(layout: TextLayout, spacing: Double, italic: Double, anchor: Point, angle: Double, mark: Rect? = nil) {
        self.layout = layout
        self.spacing = spacing
        self.italic = italic
        self.anchor = anchor
        self.angle = angle
        let (width, height) = (Self.width(layout, spacing), layout.ascent + layout.descent)
        let corners = [Point(-width / 2, -height / 2), Point(width / 2, -height / 2), Point(-width / 2, height / 2), Point(width / 2, height / 2)]
            .map { Self.placement(anchor, angle).apply($0) }
        let (xs, ys) = (corners.map(\.x), corners.map(\.y))
        let text = Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        box = mark.map(text.union) ?? text
    }

    static func width(_ layout: TextLayout, _ spacing: Double) -> Double { layout.advance + spacing * Double(layout.glyphs.count - 1) }

    /// Half the length and half the height of the rectangle along the name that holds its ink (the slant included)
    /// and `halo` pixels around it.
    func halfExtents(halo: Double) -> (length: Double, height: Double) {
        let height = layout.ascent + layout.descent
        return (Self.width(layout, spacing) / 2 + italic * height + halo, height / 2 + halo)
    }

    /// The corners of that rectangle in view pixels.
    func footprint(halo: Double) -> [Point] {
        let (length, height) = halfExtents(halo: halo)
        return [Point(-length, -height), Point(length, -height), Point(length, height), Point(-length, height)].map { Self.placement(anchor, angle).apply($0) }
    }
    static func placement(_ anchor: Point, _ angle: Double) -> Raster.AffineTransform {
        Raster.AffineTransform.rotation(angle).then(.translation(anchor.x, anchor.y))
    }

    /// The glyph outlines, letter-spaced and slanted, centred on the anchor and turned by the angle.
    var glyphs: Path {
        let width = Self.width(layout, spacing)
        let baseline = (layout.ascent - layout.descent) / 2
        let slant = Raster.AffineTransform(a: 1, b: 0, c: -italic, d: 1, tx: 0, ty: 0)
        let place = Self.placement(anchor, angle)
        var path = Path()
        for (index, glyph) in layout.glyphs.enumerated() {
            let x = glyph.x + spacing * Double(index) - width / 2
            path.append(layout.font.glyphPath(glyph.id, size: layout.size).transformed(by: slant.then(.translation(x, baseline + glyph.y)).then(place)))
        }
        return path
    }
}

/// Names of neighbourhoods (spaced capitals), subway stations (beside their mark: right, else left, above or below),
/// parks and waters (italic, along the water's long axis), placed before street names, which keep clear of them. Like street names, positions are fixed in world pixels at a
/// zoom and candidates come from beyond the view in one global order (waters, neighbourhoods, stations, parks;
/// larger first), so every tile and frame at a zoom agrees on which names show. In a frame (`labelArea`), a name that
/// would be cut by the frame's edge is left out.
struct PlaceLabeler {
    /// How far beyond the view candidates are gathered, in pixels at the view's scale (a long name).
    static let reachPixels = 600.0
    /// The collision grid's cell, in points.
    static let gridCell = 64.0

    let store: BaseMapStore
    let places: MapStyle.Places
    let font: Font
    let view: MapView
    /// The whole frame in view pixels, when the view is (a band of) a frame.
    let labelArea: Rect?

    /// The names that show in and around the view.
    func place() -> [PlaceName] {
        let k = view.pixelsPerMetre
        // A tile gathers names from around it (its neighbours must agree); a frame shows only names wholly inside it.
        let region = labelArea.map { area in
            MercatorRect(minX: view.origin.x + area.minX / k, minY: view.origin.y - area.maxY / k, maxX: view.origin.x + area.maxX / k,
                         maxY: view.origin.y - area.minY / k)
        } ?? view.mercatorBounds.outset(by: Self.reachPixels * view.scale / k)
        let table = store.places
        let pointsPerMetre = k / view.scale
        let candidates = BaseMapStore.features(of: table, grid: store.placeGrid, in: region).filter { index in
            guard let kind = PlaceKind(rawValue: table.classes[index]) else { return false }
            let layer = places.layer(kind)
            return view.zoom >= layer.minZoom && view.zoom <= layer.maxZoom && table.values[index] * pointsPerMetre * pointsPerMetre >= layer.minAreaPoints
        }.sorted { a, b in
            let (ka, kb) = (Self.order(table.classes[a]), Self.order(table.classes[b]))
            return ka != kb ? ka < kb : (table.values[a] != table.values[b] ? table.values[a] > table.values[b] : a < b)
        }
        let offset = Point(-view.origin.x * k, view.origin.y * k)
        var placed: [PlaceName] = []
        var boxes = RectIndex(extent: indexExtent, cellSize: Self.gridCell * view.scale)
        for index in candidates {
            let kind = PlaceKind(rawValue: table.classes[index])!
            let layer = places.layer(kind)
            let part = table.points(ofPart: table.parts(of: index).lowerBound)
            let anchor = Point(table.xs[part.lowerBound] * k, -table.ys[part.lowerBound] * k) + offset
            let direction = Point(table.xs[part.lowerBound + 1] - table.xs[part.lowerBound], table.ys[part.lowerBound] - table.ys[part.lowerBound + 1])
            let text = layer.uppercase ? table.names[index].uppercased() : table.names[index]
            let angle = Self.readable(atan2(direction.y, direction.x))
            let size = layer.size.value(at: view.zoom) * view.scale
            guard let layout = try? font.layout(text, size: size), !layout.glyphs.isEmpty else { continue }
            func outline(at point: Point, mark: Rect? = nil, along: Double? = nil) -> NameOutline {
                NameOutline(layout: layout, spacing: layer.letterSpacing * size, italic: layer.italic, anchor: point, angle: along ?? angle, mark: mark)
            }
            var options: [NameOutline]
            if kind == .station {
                // A station's name goes on the first side of its mark clear of the names before it (and inside the frame);
                // the other sides stay its alternatives.
                options = stationOutlines(layout, mark: anchor) { outline(at: $0, mark: $1) }
                if let clear = options.firstIndex(where: { option in
                    !boxes.intersects(option.box.outset(by: places.padding * view.scale)) && labelArea.map { $0.contains(option.box) } ?? true
                }) {
                    options.insert(options.remove(at: clear), at: 0)
                }
            } else if kind == .water {
                options = waterOutlines(index, offset: offset) { outline(at: $0, along: $1) }
                guard !options.isEmpty else { continue }
            } else {
                options = [outline(at: anchor)] + (part.lowerBound + 2..<part.upperBound).map { point in
                    outline(at: Point(table.xs[point] * k, -table.ys[point] * k) + offset)
                }
            }
            let label = options[0]
            let padded = label.box.outset(by: places.padding * view.scale)
            guard !boxes.intersects(padded) else { continue }
            if let labelArea, !labelArea.contains(label.box) { continue }
            boxes.append(padded)
            let others = options.dropFirst().filter { other in labelArea.map { $0.contains(other.box) } ?? true }
            placed.append(PlaceName(name: table.names[index], kind: kind, outline: label, alternatives: others, color: layer.color))
        }
        return placed
    }

    /// A station's name beside its mark (right, left, above, below), each box holding the mark.
    private func stationOutlines(_ layout: TextLayout, mark: Point, outline: (Point, Rect?) -> NameOutline) -> [NameOutline] {
        let look = places.stationMark
        let radius = StationMarks(store: store, look: look, view: view).radius
        let markBox = Rect(x: mark.x - radius, y: mark.y - radius, width: 2 * radius, height: 2 * radius)
        let (width, height) = (layout.advance, layout.ascent + layout.descent)
        let across = radius + look.gap * view.scale + width / 2
        let along = radius + look.gap * view.scale / 2 + height / 2
        return [Point(across, 0), Point(-across, 0), Point(0, -along), Point(0, along)].map { outline(mark + $0, markBox) }
    }

    /// A water's name at each of its spots where it stays on the water at this zoom, halo included (none when it fits
    /// nowhere), in the spots' order.
    private func waterOutlines(_ index: Int, offset: Point, outline: (Point, Double) -> NameOutline) -> [NameOutline] {
        let table = store.places
        let k = view.pixelsPerMetre
        return table.parts(of: index).compactMap { part in
            let points = table.points(ofPart: part).map { MercatorPoint(x: table.xs[$0], y: table.ys[$0]) }
            guard let spot = WaterSpot(points: points) else { return nil }
            let name = outline(Point(spot.anchor.x * k, -spot.anchor.y * k) + offset, Self.readable(atan2(-spot.axis.y, spot.axis.x)))
            let half = name.halfExtents(halo: haloWidth / 2)
            return spot.fits(halfLength: half.length / k, halfHeight: half.height / k) ? name : nil
        }
    }

    /// Where each name shows clear of `avoiding` (its own place, or the first of its alternatives that is clear
    /// of those and of the names before it), in order; names with no clear place are left out.
    func placements(_ placed: [PlaceName], avoiding: [Rect]) -> [NamePlacement] {
        var shown: [NamePlacement] = []
        var boxes = RectIndex(extent: indexExtent, cellSize: Self.gridCell * view.scale)
        var avoided = RectIndex(extent: indexExtent, cellSize: Self.gridCell * view.scale)
        for box in avoiding { avoided.append(box) }
        let padding = places.padding * view.scale
        for (index, name) in placed.enumerated() {
            guard let option = ([name.outline] + name.alternatives).firstIndex(where: { option in
                !avoided.intersects(option.box) && !boxes.intersects(option.box)
            }) else { continue }
            shown.append(NamePlacement(name: index, option: option))
            boxes.append(name.outline(option).box.outset(by: padding))
        }
        return shown
    }

    /// Draws the names that touch the canvas, clear of `avoiding`: a halo under each, then the glyphs.
    func draw(_ placed: [PlaceName], into canvas: Canvas, avoiding: [Rect]) {
        draw(placed, placements: placements(placed, avoiding: avoiding), into: canvas)
    }

    /// Draws names where `placements` put them (those that touch the canvas), in order.
    func draw(_ placed: [PlaceName], placements: [NamePlacement], into canvas: Canvas) {
        let visible = Rect(x: 0, y: Double(canvas.originY), width: Double(view.width), height: Double(canvas.height))
        for placement in placements {
            let outline = placed[placement.name].outline(placement.option)
            guard outline.box.outset(by: haloWidth).overlaps(visible) else { continue }
            let glyphs = outline.glyphs
            canvas.stroke(glyphs, style: StrokeStyle(width: haloWidth, join: .bevel, cap: .butt), paint: .solid(places.halo))
            canvas.fill(glyphs, paint: .solid(placed[placement.name].color))
        }
    }

    /// Where names are looked for, in view pixels: the view and the reach around it.
    private var indexExtent: Rect { Rect(x: 0, y: 0, width: Double(view.width), height: Double(view.height)).outset(by: Self.reachPixels * view.scale) }

    /// The width of the halo stroked under each name, in view pixels.
    var haloWidth: Double { places.haloWidth * view.scale * 2 }

    /// Whole view pixels holding everything `draw` paints for a placement: the glyphs' control bounds, out by half
    /// the halo and one pixel of coverage.
    func inkBounds(of placement: NamePlacement, in placed: [PlaceName]) -> Rect? {
        guard let bounds = placed[placement.name].outline(placement.option).glyphs.controlBounds else { return nil }
        let ink = bounds.outset(by: haloWidth / 2 + 1)
        let (x0, y0) = (ink.minX.rounded(.down), ink.minY.rounded(.down))
        return Rect(x: x0, y: y0, width: ink.maxX.rounded(.up) - x0, height: ink.maxY.rounded(.up) - y0)
    }

    /// Waters first, then neighbourhoods, stations, parks.
    private static func order(_ kind: UInt8) -> Int {
        switch PlaceKind(rawValue: kind) {
        case .water: 0
        case .neighbourhood: 1
        case .station: 2
        case .park: 3
        case nil: 4
        }
    }

    /// An angle turned so that text along it reads left to right (within ±90°).
    static func readable(_ angle: Double) -> Double {
        var turned = remainder(angle, 2 * Double.pi)
        if turned > Double.pi / 2 { turned -= Double.pi }
        if turned <= -Double.pi / 2 { turned += Double.pi }
        return turned
    }
}
