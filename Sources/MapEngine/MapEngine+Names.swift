import BaseMap
import Foundation
import GeoCore
import Raster

/// Place names over a viewer's pins: a frame starts from the shared layer with the names where no pin moves them,
/// and only the names its pins move, and the names touching them, are changed on it (their pixels copied back from
/// the layer without names, those names drawn where they now go), so that its PNG recompresses only around those
/// names and its pins.
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
        let added = shown.filter { !kept.contains($0) }
        let (restored, redrawn) = Self.namesToRedraw(kept: shared.unobstructed.filter(kept.contains), inks: named.inks,
                                                     removed: shared.unobstructed.filter { !kept.contains($0) },
                                                     added: added.compactMap { baseMap.inkBounds(of: $0, in: names, of: view) })
        for ink in restored { try canvas.copyPixels(from: shared.canvas, in: ink) }
        baseMap.drawPlaceNames(names, placements: shown.filter { redrawn.contains($0) || !kept.contains($0) }, of: view, into: canvas)
        return (canvas, named.layer)
    }

    /// The pixels to copy back from the layer without names, and the names that stay but are drawn anew: a name that
    /// stays keeps every pixel it paints only if none of them is restored or painted by a new name, so every name whose
    /// ink touches those pixels is restored and redrawn too, until none is left (then the frame holds the same bytes as
    /// one with every shown name drawn on the layer without names, in order).
    static func namesToRedraw(kept: [NamePlacement], inks: [NamePlacement: Rect], removed: [NamePlacement],
                              added: [Rect]) -> (restored: [Rect], redrawn: Set<NamePlacement>) {
        var restored = removed.compactMap { inks[$0] }
        var touched = restored + added
        var redrawn = Set<NamePlacement>()
        var grew = true
        while grew {
            grew = false
            for placement in kept where !redrawn.contains(placement) {
                guard let ink = inks[placement], touched.contains(where: { overlap(ink, $0) }) else { continue }
                redrawn.insert(placement)
                restored.append(ink)
                touched.append(ink)
                grew = true
            }
        }
        return (restored, redrawn)
    }

    /// Whether two rectangles of whole pixels share a pixel.
    private static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }
}
