import Foundation
import GeoCore
import Raster

/// Draws the base layers (water, land, parks, street casings and fills, station marks, street names) for any view.
/// Geometry comes from a buffer around the view, so strokes and names that cross a tile edge continue in
/// the neighbouring tile. Safe to share: it holds immutable data and a thread-safe font.
public final class BaseMapRenderer: Sendable {
    /// Extra pixels of geometry fetched beyond each edge, besides the widest stroke.
    static let bufferPixels = 8.0

    public let store: BaseMapStore
    public let style: MapStyle
    public let labelFont: Font

    public init(store: BaseMapStore, style: MapStyle, labelFont: Font) {
        self.store = store
        self.style = style
        self.labelFont = labelFont
    }

    /// A new canvas of the view's size with the base map drawn: as a tile, or (`asFrame`) as a whole frame, whose
    /// names are never cut at its edge (place names are then the caller's, see `draw`) and street names and station
    /// marks keep clear of `reserved` (frame pixels).
    public func render(_ view: MapView, asFrame: Bool = false, reserved: [Rect] = []) throws(RasterError) -> Canvas {
        let canvas = try Canvas(width: view.width, height: view.height, background: style.water)
        draw(into: canvas, view: view, frame: asFrame ? view : nil, reserved: reserved)
        return canvas
    }

    /// Draws the base map onto an existing canvas of the view's size. When the view is a frame or a band of
    /// one, `frame` is the whole frame: names it would cut at its edge are left out (tiles keep them, so that
    /// neighbouring tiles complete each other's names).
    /// A frame's place names are left to the caller (`placeNames(for:)`), who draws them clear of its pins;
    /// street names keep clear of them either way. `visited` pieces of street are tinted with the style's Footsteps
    /// colour over the street fills, under every name and mark. In a frame, street names and station marks keep clear of
    /// `reserved` (boxes in the frame's pixels: the credit's plate, the bottom inset).
    public func draw(into canvas: Canvas, view: MapView, frame: MapView? = nil, visited: [StreetPiece] = [], reserved: [Rect] = []) {
        let generalizer = Generalizer(view: view, tolerancePixels: style.tolerance, minAreaPixels: style.minArea)
        let widest = StreetClass.allCases.map { style.street($0).width.value(at: view.zoom) }.max() ?? 0
        let bufferMetres = ((widest + style.casingWidth.value(at: view.zoom)) * view.scale / 2 + Self.bufferPixels) / view.pixelsPerMetre
        let area = view.mercatorBounds.outset(by: bufferMetres)

        let rows = Double(canvas.originY)..<Double(canvas.originY + canvas.height)
        let land = BaseMapStore.features(of: store.land, grid: store.landGrid, in: area)
        canvas.fill(contours: generalizer.rings(store.land, features: land, rows: rows), paint: .solid(style.land))
        if view.zoom >= style.parkMinZoom {
            let parks = BaseMapStore.features(of: store.parks, grid: store.parkGrid, in: area)
            canvas.fill(contours: generalizer.rings(store.parks, features: parks, rows: rows), paint: .solid(style.park))
        }
        let streets = streetContours(generalizer: generalizer, area: area)
        let casing = style.casingWidth.value(at: view.zoom)
        let casings = streets.map { street, contours in
            (contours, StrokeStyle(width: (style.street(street).width.value(at: view.zoom) + casing) * view.scale, join: .round, cap: .round))
        }
        canvas.stroke(groups: casings, paint: .solid(style.casingColor))
        // Fills go small classes first; neighbouring classes of one colour are drawn as one union.
        var index = 0
        while index < streets.count {
            let color = style.street(streets[index].0).color
            var groups: [(contours: [Contour], style: StrokeStyle)] = []
            while index < streets.count, style.street(streets[index].0).color == color {
                let (street, contours) = streets[index]
                groups.append((contours, StrokeStyle(width: style.street(street).width.value(at: view.zoom) * view.scale, join: .round, cap: .round)))
                index += 1
            }
            canvas.stroke(groups: groups, paint: .solid(color))
        }
        if let tint = style.footsteps, !visited.isEmpty { drawVisited(visited, view: view, tint: tint, into: canvas) }
        let names = nameSpace(view: view, frame: frame, reserved: reserved)
        names.marks?.draw(into: canvas)
        if let places = style.places, frame == nil {
            PlaceLabeler(store: store, places: places, font: labelFont, view: view, labelArea: nil).draw(names.places, into: canvas, avoiding: [])
        }
        names.streets?.draw(into: canvas)
    }

    /// A view's station marks, place names (a frame's only when street names keep clear of them: the caller draws
    /// them) and street names (nil below their zoom), the street names clear of the marks, the place names and, in a
    /// frame, of `reserved` (in the frame's pixels), which the marks keep clear of too.
    private func nameSpace(view: MapView, frame: MapView?, reserved: [Rect]) -> (marks: StationMarks?, places: [PlaceName], streets: StreetLabeler?) {
        let k = view.pixelsPerMetre
        // A band of a frame lies some rows down it: the frame's boxes move up by as many.
        let shift = frame.map { Point(($0.origin.x - view.origin.x) * k, (view.origin.y - $0.origin.y) * k) } ?? Point(0, 0)
        let labelArea = frame.map { Rect(x: shift.x, y: shift.y, width: Double($0.width), height: Double($0.height)) }
        let kept = frame == nil ? [] : reserved.map { Rect(x: $0.x + shift.x, y: $0.y + shift.y, width: $0.width, height: $0.height) }
        let marks = style.places.map { StationMarks(store: store, look: $0.stationMark, view: view, reserved: kept) }
        let streetNames = view.zoom >= style.labels.minZoom
        // A style without place names (the tracking map's) still names its streets.
        let placed = style.places.map { places in
            frame == nil || streetNames ? PlaceLabeler(store: store, places: places, font: labelFont, view: view, labelArea: labelArea).place() : []
        } ?? []
        guard streetNames else { return (marks, placed, nil) }
        let padding = (style.places?.padding ?? 0) * view.scale
        let obstacles = (marks?.boxes() ?? []) + placed.map { $0.box.outset(by: padding) } + kept
        return (marks, placed, StreetLabeler(store: store, style: style, font: labelFont, view: view, obstacles: obstacles, labelArea: labelArea))
    }

    /// The boxes of the station marks and street names a frame draws clear of `reserved`, in its pixels.
    func markAndStreetNameBoxes(frame: MapView, reserved: [Rect]) -> (marks: [Rect], streets: [Rect]) {
        let names = nameSpace(view: frame, frame: frame, reserved: reserved)
        return (names.marks?.boxes() ?? [], names.streets?.labels().map(\.label.box) ?? [])
    }

    /// The place names of a frame, in its pixels, for `drawPlaceNames`.
    public func placeNames(for frame: MapView) -> [PlaceName] {
        guard let places = style.places else { return [] }
        let area = Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
        return PlaceLabeler(store: store, places: places, font: labelFont, view: frame, labelArea: area).place()
    }

    /// Draws the style's attribution in the bottom-right corner of `free` (the part of the frame the insets
    /// leave free, in frame pixels) onto a canvas of the frame (or a band of it).
    public func drawAttribution(scale: Double, free: Rect, into canvas: Canvas) {
        guard let credit = style.attribution, let (plate, layout) = attributionPlate(scale: scale, free: free) else { return }
        let padding = credit.size * scale * 0.4
        canvas.fill(.roundedRect(plate, radius: plate.height / 2), paint: .solid(credit.plate))
        canvas.drawText(layout, at: Point(plate.minX + padding, plate.minY + padding / 2 + layout.ascent), color: credit.ink)
    }

    /// The plate `drawAttribution` fills (nil when it draws none), in frame pixels: names keep clear of it.
    public func attributionBox(scale: Double, free: Rect) -> Rect? { attributionPlate(scale: scale, free: free)?.plate }

    private func attributionPlate(scale: Double, free: Rect) -> (plate: Rect, layout: TextLayout)? {
        guard let credit = style.attribution, let layout = try? labelFont.layout(credit.text, size: credit.size * scale) else { return nil }
        let padding = credit.size * scale * 0.4
        let height = layout.ascent + layout.descent + padding
        let plate = Rect(x: free.maxX - credit.margin * scale - layout.advance - 2 * padding, y: free.maxY - credit.margin * scale - height,
                         width: layout.advance + 2 * padding, height: height)
        return plate.minX >= free.minX && plate.minY >= free.minY ? (plate, layout) : nil
    }

    /// The boxes of the place names a frame shows, clear of `avoiding` (in frame pixels, in placement order).
    public func shownPlaceNames(_ names: [PlaceName], of frame: MapView, avoiding: [Rect]) -> [Rect] {
        namePlacements(names, of: frame, avoiding: avoiding).map { names[$0.name].outline($0.option).box }
    }

    /// Where the place names a frame shows go, clear of `avoiding` (in frame pixels), in placement order.
    public func namePlacements(_ names: [PlaceName], of frame: MapView, avoiding: [Rect]) -> [NamePlacement] {
        guard let places = style.places else { return [] }
        return PlaceLabeler(store: store, places: places, font: labelFont, view: frame, labelArea: nil).placements(names, avoiding: avoiding)
    }

    /// Draws place names where `placements` put them, in order, onto a canvas of the frame (or a band of it).
    public func drawPlaceNames(_ names: [PlaceName], placements: [NamePlacement], of frame: MapView, into canvas: Canvas) {
        guard let places = style.places else { return }
        PlaceLabeler(store: store, places: places, font: labelFont, view: frame, labelArea: nil).draw(names, placements: placements, into: canvas)
    }

    /// Whole frame pixels holding all that `drawPlaceNames` paints for one placement.
    public func inkBounds(of placement: NamePlacement, in names: [PlaceName], of frame: MapView) -> Rect? {
        guard let places = style.places else { return nil }
        return PlaceLabeler(store: store, places: places, font: labelFont, view: frame, labelArea: nil).inkBounds(of: placement, in: names)
    }

    /// Draws a frame's place names onto a canvas of it (or a band of it, by its `originY`), leaving out those
    /// that would touch any of `avoiding` (the pins' boxes, in frame pixels).
    public func drawPlaceNames(_ names: [PlaceName], of frame: MapView, avoiding: [Rect], into canvas: Canvas) {
        guard let places = style.places else { return }
        PlaceLabeler(store: store, places: places, font: labelFont, view: frame, labelArea: nil).draw(names, into: canvas, avoiding: avoiding)
    }

    /// The visible streets' contours by class, small classes first.
    /// The visited pieces of the streets drawn at the view's zoom, as wide as their street's fill.
    private func drawVisited(_ pieces: [StreetPiece], view: MapView, tint: Color, into canvas: Canvas) {
        var byClass = [[Contour]](repeating: [], count: StreetClass.allCases.count)
        for piece in pieces where view.zoom >= style.street(piece.street).minZoom {
            let (a, b) = (view.pixel(x: piece.from.x, y: piece.from.y), view.pixel(x: piece.to.x, y: piece.to.y))
            byClass[Int(piece.street.rank)].append(Contour(points: [Point(a.x, a.y), Point(b.x, b.y)], isClosed: false))
        }
        let groups = StreetClass.allCases.map { street in
            (byClass[Int(street.rank)], StrokeStyle(width: style.street(street).width.value(at: view.zoom) * view.scale, join: .round, cap: .round))
        }
        canvas.stroke(groups: groups, paint: .solid(tint))
    }

    private func streetContours(generalizer: Generalizer, area: MercatorRect) -> [(StreetClass, [Contour])] {
        var byClass = [[Contour]](repeating: [], count: StreetClass.allCases.count)
        let table = store.streets
        for feature in BaseMapStore.features(of: table, grid: store.streetGrid, in: area) {
            guard let street = StreetClass(rank: table.classes[feature]), generalizer.view.zoom >= style.street(street).minZoom,
                  generalizer.isVisible(table, feature: feature) else { continue }
            for part in table.parts(of: feature) {
                byClass[Int(street.rank)].append(generalizer.contour(table, part: part, closed: false))
            }
        }
        return StreetClass.allCases.map { ($0, byClass[Int($0.rank)]) }
    }
}
