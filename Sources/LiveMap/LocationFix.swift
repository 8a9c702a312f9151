import Foundation
import GeoCore

/// A person's location as their phone reported it: where, how precisely, when it was taken, and optionally a
/// place name (kept to `PersonText`'s rule, in NFC; an empty one is none), what the motion sensors said and the
/// speed. Construction validates.
public struct LocationFix: Hashable, Sendable {
    public static let accuracyRange: ClosedRange<Double> = 0...100_000
    /// Speeds a phone may report, in m/s (an airliner's cruise is about 250).
    public static let speedRange: ClosedRange<Double> = 0...400

    public let coordinate: Coordinate
    public let accuracyMeters: Double
    public let takenAt: Date
    public let place: String?
    public let activity: Activity?
    public let speedMetersPerSecond: Double?

    public init(coordinate: Coordinate, accuracyMeters: Double, takenAt: Date, place: String? = nil,
                activity: Activity? = nil, speedMetersPerSecond: Double? = nil) throws(LiveMapError) {
        do {
            try coordinate.checkProjectable()
            try BadField.check(accuracyMeters, "accuracyMeters", in: Self.accuracyRange)
            if let speedMetersPerSecond { try BadField.check(speedMetersPerSecond, "speedMetersPerSecond", in: Self.speedRange) }
        } catch {
            throw .invalid(field: error.field, message: error.message)
        }
        if let place, !place.isEmpty {
            self.place = try PersonText.checked(place, field: "place")
        } else {
            self.place = nil
        }
        self.coordinate = coordinate
        self.accuracyMeters = accuracyMeters
        self.takenAt = takenAt
        self.activity = activity
        self.speedMetersPerSecond = speedMetersPerSecond
    }

    private init(keeping fix: LocationFix, takenAt: Date) {
        coordinate = fix.coordinate
        accuracyMeters = fix.accuracyMeters
        self.takenAt = takenAt
        place = fix.place
        activity = fix.activity
        speedMetersPerSecond = fix.speedMetersPerSecond
    }

    /// This fix as every store keeps it and reads it back: its time to the millisecond, all else as it is.
    public var asStored: LocationFix { LocationFix(keeping: self, takenAt: Self.date(Self.milliseconds(takenAt))) }

    /// The stores' and the bus's millisecond of an instant, and back.
    public static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded()) }
    public static func date(_ milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// Builds a fix from raw numbers, naming `lat`, `lon`, `accuracyMeters` or `speedMetersPerSecond` when one is wrong.
    public init(lat: Double, lon: Double, accuracyMeters: Double, takenAt: Date, place: String? = nil,
                activity: Activity? = nil, speedMetersPerSecond: Double? = nil) throws(LiveMapError) {
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(lat: lat, lon: lon)
        } catch {
            throw .invalid(field: error.field, message: error.message)
        }
        try self.init(coordinate: coordinate, accuracyMeters: accuracyMeters, takenAt: takenAt, place: place,
                      activity: activity, speedMetersPerSecond: speedMetersPerSecond)
    }
}
