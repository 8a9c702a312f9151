import BaseMap
import Foundation
import GeoCore

/// The footsteps layer: a person's own frames tint the streets within `visitedRadiusMeters` of their kept places.
/// It reads nothing but the places it is given, and a frame with it shares no layer with anyone.
extension MapEngine {
    /// A street counts as visited within this many metres on the ground of a kept place (tinted, and explored).
    public static let visitedRadiusMeters = 50.0

    /// The pieces of street near `places` that a frame of `view` with `layers` tints: none without the footsteps and
    /// base layers or without a tint in the style; else those of the streets meeting the view, a stroke's width around.
    func visitedPieces(_ view: MapView, layers: Set<MapLayer>, places: [MercatorPoint]) -> [StreetPiece] {
        guard layers.isSuperset(of: [.footsteps, .base]), baseMap.style.footsteps != nil, !places.isEmpty else { return [] }
        let widest = StreetClass.allCases.map { baseMap.style.street($0).width.value(at: view.zoom) }.max() ?? 0
        let area = view.mercatorBounds.expanded(by: (widest * view.scale / 2 + 1) / view.pixelsPerMetre)
        return baseMap.store.streetPieces(near: places, radiusMeters: Self.visitedRadiusMeters, in: area)
    }

    /// What the tint of a frame is drawn from, for its tag: the pieces (every bit of their ends) and the tint's style;
    /// nil when nothing is tinted.
    func footstepsInputs(_ view: MapView, layers: Set<MapLayer>, places: [MercatorPoint]) -> String? {
        let pieces = visitedPieces(view, layers: layers, places: places)
        guard !pieces.isEmpty else { return nil }
        var hash = FNV1a()
        for piece in pieces {
            hash.add(piece.street.rank)
            for number in [piece.from.x, piece.from.y, piece.to.x, piece.to.y] { hash.add(bitsOf: number) }
        }
        return String(hash.value, radix: 16) + "\u{1F}" + styleSections.footsteps
    }
}
