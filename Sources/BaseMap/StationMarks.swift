import Foundation
import GeoCore
import Raster

/// Subway stations' marks: a ringed dot at each station from the mark's zoom, drawn with the base layers (under
/// the glow and the names), the same in every tile and frame that shows the station; in a frame, none meets a reserved
/// box (the credit's plate, the bottom inset), so its station's name, whose every spot holds the mark, stays out too.
struct StationMarks {
    let store: BaseMapStore
    let look: MapStyle.StationMark
    let view: MapView
    /// Boxes no mark meets, in view pixels.
    var reserved: [Rect] = []

    /// The mark's outer radius in view pixels, its ring included.
    var radius: Double { (look.radius.value(at: view.zoom) + look.ringWidth / 2) * view.scale }

    /// The centres of the marks that touch the view and meet no reserved box, in view pixels (none below the mark's zoom).
    func centres() -> [Point] {
        guard view.zoom >= look.minZoom else { return [] }
        let k = view.pixelsPerMetre
        let area = view.mercatorBounds.outset(by: (radius + 1) / k)
        let table = store.places
        return BaseMapStore.features(of: table, grid: store.placeGrid, in: area).filter { table.classes[$0] == PlaceKind.station.rawValue }.map { index in
            let first = table.points(ofPart: table.parts(of: index).lowerBound).lowerBound
            return Point((table.xs[first] - view.origin.x) * k, (view.origin.y - table.ys[first]) * k)
        }.filter { centre in !reserved.contains { $0.intersects(box(around: centre)) } }
    }

    /// The boxes of the marks in view pixels, for names to keep clear of.
    func boxes() -> [Rect] { centres().map(box(around:)) }

    private func box(around centre: Point) -> Rect {
        let r = radius
        return Rect(x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r)
    }

    func draw(into canvas: Canvas) {
        let inner = look.radius.value(at: view.zoom) * view.scale
        for centre in centres() {
            let dot = Path.circle(center: centre, radius: inner)
            canvas.fill(dot, paint: .solid(look.fill))
            canvas.stroke(dot, style: StrokeStyle(width: look.ringWidth * view.scale, join: .round, cap: .round), paint: .solid(look.ring))
        }
    }
}
