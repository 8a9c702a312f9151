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
        guard let area = tintedArea(view, layers: layers), !places.isEmpty else { return [] }
        return baseMap.store.streetPieces(near: places, radiusMeters: Self.visitedRadiusMeters, in: area)
    }

    /// The streets' area a frame of `view` with `layers` tints (a stroke's width around the view); nil when it tints none.
    private func tintedArea(_ view: MapView, layers: Set<MapLayer>) -> MercatorRect? {
        guard layers.isSuperset(of: [.footsteps, .base]), baseMap.style.footsteps != nil else { return nil }
        let widest = StreetClass.allCases.map { baseMap.style.street($0).width.value(at: view.zoom) }.max() ?? 0
        return view.mercatorBounds.outset(by: (widest * view.scale / 2 + 1) / view.pixelsPerMetre)
    }

    /// Where the kept places that can tint a frame of `viewport` with `layers` lie, in degrees and a hair wider: a
    /// frame drawn from only the places inside is the frame drawn from them all. Nil when the frame tints nothing.
    public func footstepsBounds(_ viewport: Viewport, layers: Set<MapLayer>) -> GeoBoundingBox? {
        guard let area = tintedArea(MapView(viewport: viewport), layers: layers) else { return nil }
        let around = BaseMapStore.placesArea(radiusMeters: Self.visitedRadiusMeters, in: area)
        let degrees = around.geoBounds
        let (hair, half) = (1e-7, WebMercator.halfWorld)
        return try? GeoBoundingBox(west: max(degrees.west - hair, -180), south: around.minY < -half ? -90 : max(degrees.south - hair, -90),
                                   east: min(degrees.east + hair, 180), north: around.maxY > half ? 90 : min(degrees.north + hair, 90))
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
