import BaseMap
import Foundation
import GeoCore
import Raster

/// Place names over a viewer's pins: a frame starts from the shared layer with the names where no pin moves them,
/// and only the names its pins move are changed on it (their pixels copied back from the layer without names, the
/// moved names drawn where they now go), so that its PNG recompresses only around those names and its pins.
extension MapEngine {
    /// A canvas holding `shared` with the place names of `view` clear of `avoiding` (the pins' boxes), and the
    /// shared layer it was copied from (whose PNG bands encode it).
    func namedCopy(of shared: SharedLayer, view: MapView, avoiding: [Rect]) throws -> (canvas: Canvas, layer: SharedLayer) {
        let names = shared.names
        guard !names.isEmpty else { return (try framePool.copy(of: shared.canvas), shared) }
        let named = try shared.withNames({ self.baseMap.drawPlaceNames(names, placements: shared.unobstructed, of: view, into: $0) },
                                         ink: { self.baseMap.inkBounds(of: $0, in: names, of: view) })
        let shown = baseMap.namePlacements(names, of: view, avoiding: avoiding)
        let canvas = try framePool.copy(of: named.layer.canvas)
        guard shown != shared.unobstructed else { return (canvas, named.layer) }
        let kept = Set(shown).intersection(shared.unobstructed)
        let removed = shared.unobstructed.filter { !kept.contains($0) }
        let added = shown.filter { !kept.contains($0) }
        let changing = removed.compactMap { named.inks[$0] } + added.compactMap { baseMap.inkBounds(of: $0, in: names, of: view) }
        // A name that stays must keep every pixel it paints: if one is near a name that moves, all are drawn anew.
        guard !kept.contains(where: { placement in named.inks[placement].map { ink in changing.contains { Self.overlap(ink, $0) } } ?? false }) else {
            try canvas.reset(to: shared.canvas)
            baseMap.drawPlaceNames(names, placements: shown, of: view, into: canvas)
            return (canvas, shared)
        }
        for ink in removed.compactMap({ named.inks[$0] }) { try canvas.copyPixels(from: shared.canvas, in: ink) }
        baseMap.drawPlaceNames(names, placements: added, of: view, into: canvas)
        return (canvas, named.layer)
    }

    /// Whether two rectangles of whole pixels share a pixel.
    private static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }
}
