import Foundation
import GeoCore
import Raster

/// Draws the base layers (water, land, parks, street casings and fills, street names) for any view.
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

    /// A new canvas of the view's size with the base map drawn.
    public func render(_ view: MapView) throws(RasterError) -> Canvas {
        let canvas = try Canvas(width: view.width, height: view.height, background: style.water)
        draw(into: canvas, view: view)
        return canvas
    }

    /// Draws the base map onto an existing canvas of the view's size.
    public func draw(into canvas: Canvas, view: MapView) {
        let generalizer = Generalizer(view: view, tolerancePixels: style.tolerance, minAreaPixels: style.minArea)
        let widest = StreetClass.allCases.map { style.street($0).width.value(at: view.zoom) }.max() ?? 0
        let bufferMetres = ((widest + style.casingWidth.value(at: view.zoom)) * view.scale / 2 + Self.bufferPixels) / view.pixelsPerMetre
        let area = view.mercatorBounds.expanded(by: bufferMetres)

        let land = BaseMapStore.features(of: store.land, grid: store.landGrid, in: area)
        canvas.fill(contours: generalizer.contours(store.land, features: land, closed: true), paint: .solid(style.land))
        if view.zoom >= style.parkMinZoom {
            let parks = BaseMapStore.features(of: store.parks, grid: store.parkGrid, in: area)
            canvas.fill(contours: generalizer.contours(store.parks, features: parks, closed: true), paint: .solid(style.park))
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
        if view.zoom >= style.labels.minZoom {
            StreetLabeler(store: store, style: style, font: labelFont, view: view).draw(into: canvas)
        }
    }

    /// The visible streets' contours by class, small classes first.
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
