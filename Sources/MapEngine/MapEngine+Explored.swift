import BaseMap
import Foundation
import GeoCore

/// How much of a neighbourhood a person has explored: the ground length of its streets within
/// `MapEngine.visitedRadiusMeters` of a kept place, against the ground length of all its streets (both measured in
/// cuts of at most `Neighbourhoods.cutMeters`, each counted in the neighbourhood that holds its middle).
public struct Exploration: Encodable, Sendable, Equatable {
    public let neighbourhood: String
    public let exploredMeters: Double
    public let streetMeters: Double
    /// exploredMeters / streetMeters, 0…1.
    public let share: Double
    /// "You have explored 38% of Williamsburg": the share in whole percent, rounded down.
    public let text: String
}

/// The neighbourhoods, read from the base map's sources on first use, and the street length of each one measured so
/// far (at most one number per neighbourhood).
final class Explorations: @unchecked Sendable {
    private let lock = NSLock()
    private var neighbourhoods: Neighbourhoods?
    private var streetMeters: [Int: Double] = [:]
    private var placesReach: MercatorRect?

    func areas(sourceDirectory: URL) throws -> Neighbourhoods {
        try lock.withLock {
            if let neighbourhoods { return neighbourhoods }
            let read = try Neighbourhoods.load(sourceDirectory: sourceDirectory)
            neighbourhoods = read
            return read
        }
    }

    func reach(measure: () -> MercatorRect) -> MercatorRect {
        if let known = lock.withLock({ placesReach }) { return known }
        let measured = measure()
        lock.withLock { placesReach = measured }
        return measured
    }

    func streetLength(_ index: Int, measure: () -> Double) -> Double {
        if let known = lock.withLock({ streetMeters[index] }) { return known }
        let measured = measure()
        lock.withLock { streetMeters[index] = measured }
        return measured
    }
}

extension MapEngine {
    /// Streets are measured in cuts of at most this many metres, each counted in the neighbourhood holding its middle.
    public static let exploredCutMeters = Neighbourhoods.cutMeters

    /// Where the kept places that `explored(places:)` counts lie, in degrees and a hair wider: around every street that
    /// meets a neighbourhood's bounds, twice the visited radius out. The answer from only the places inside is the
    /// answer from them all, so a history is read through the store's index of places, not whole.
    public func exploredBounds() throws -> GeoBoundingBox {
        let neighbourhoods = try explorations.areas(sourceDirectory: paths.baseMapSourceDirectory)
        let streets = baseMap.store.streets
        let reach = explorations.reach {
            var covered: MercatorRect?
            for area in neighbourhoods.areas {
                for feature in BaseMapStore.features(of: streets, grid: baseMap.store.streetGrid, in: area.bounds) {
                    covered = covered.map { $0.union(streets.bounds(of: feature)) } ?? streets.bounds(of: feature)
                }
            }
            guard let covered else { return MercatorRect(minX: 0, minY: 0, maxX: 0, maxY: 0) }
            // A place reaches streets within the radius on the ground: more mercator metres away from the equator.
            return covered.outset(by: 2 * Self.visitedRadiusMeters * cosh(max(abs(covered.minY), abs(covered.maxY)) / WebMercator.earthRadius))
        }
        let degrees = reach.geoBounds
        let hair = 1e-7
        return try GeoBoundingBox(west: max(degrees.west - hair, -180), south: max(degrees.south - hair, -90),
                                  east: min(degrees.east + hair, 180), north: min(degrees.north + hair, 90))
    }

    /// The neighbourhoods with any street near `places`, each with the share of it explored; most explored first,
    /// then by name. Reads the neighbourhoods from the base map's sources (a `DataFileError` without them).
    public func explored(places: [MercatorPoint]) throws -> [Exploration] {
        guard !places.isEmpty else { return [] }
        let neighbourhoods = try explorations.areas(sourceDirectory: paths.baseMapSourceDirectory)
        let store = baseMap.store
        let margin = 2 * Self.visitedRadiusMeters * cosh(places.map { abs($0.y) }.max()! / WebMercator.earthRadius)
        let area = MercatorRect(minX: places.map(\.x).min()! - margin, minY: places.map(\.y).min()! - margin,
                                maxX: places.map(\.x).max()! + margin, maxY: places.map(\.y).max()! + margin)
        let visited = neighbourhoods.lengths(of: store.streetPieces(near: places, radiusMeters: Self.visitedRadiusMeters, in: area))
        return visited.compactMap { index, meters -> Exploration? in
            let total = explorations.streetLength(index) { neighbourhoods.streetLength(of: store, in: index) }
            guard total > 0 else { return nil }
            let share = min(1, meters / total)
            let name = neighbourhoods.areas[index].name
            return Exploration(neighbourhood: name, exploredMeters: meters, streetMeters: total, share: share,
                               text: "You have explored \(Int((share * 100).rounded(.down)))% of \(name)")
        }.sorted { ($1.share, $0.neighbourhood) < ($0.share, $1.neighbourhood) }
    }
}
