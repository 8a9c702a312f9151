import Foundation
import GeoCore

/// One place of a person's Footsteps: where, and the first and last time they were seen there.
public struct Footstep: Hashable, Sendable {
    public let coordinate: Coordinate
    public let firstVisit: Date
    public let lastVisit: Date

    public init(coordinate: Coordinate, firstVisit: Date, lastVisit: Date) {
        self.coordinate = coordinate
        self.firstVisit = firstVisit
        self.lastVisit = lastVisit
    }
}

/// Footsteps: a private history of the places a person has been, kept only while they turn it on, shown only to
/// them, fed by their own kept fixes and thinned: a fix within `spacingMeters` of the latest place and within
/// `gapSeconds` of its last visit extends that visit; any other starts a new place. Places last visited more than
/// `keptFor` before the newest fix go, and at most `maxPlaces` are kept (the oldest go first).
public enum Footsteps {
    public static let spacingMeters = 50.0
    public static let gapSeconds: TimeInterval = 600
    public static let keptFor: TimeInterval = 365 * 86_400
    public static let maxPlaces = 100_000

    /// What a fix at `coordinate`, taken at `time`, makes of a history whose latest place is `last`: that place
    /// with its last visit moved (`extendsLast`), or a new place.
    public static func next(after last: Footstep?, coordinate: Coordinate, at time: Date) -> (place: Footstep, extendsLast: Bool) {
        if let last, time.timeIntervalSince(last.lastVisit) < gapSeconds, time >= last.lastVisit,
           Geodesic.wgs84.distance(last.coordinate, coordinate) < spacingMeters {
            return (Footstep(coordinate: last.coordinate, firstVisit: last.firstVisit, lastVisit: time), true)
        }
        return (Footstep(coordinate: coordinate, firstVisit: time, lastVisit: time), false)
    }
}
