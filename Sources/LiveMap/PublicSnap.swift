import Foundation
import GeoCore

/// A Snap submitted to the public map: who (kept only to count distinct people for the glow), where, when.
public struct PublicSnap: Hashable, Sendable {
    public let person: PersonID
    public let coordinate: Coordinate
    public let takenAt: Date

    public init(person: PersonID, coordinate: Coordinate, takenAt: Date) throws(LiveMapError) {
        do {
            try coordinate.checkProjectable()
        } catch {
            throw .invalid(field: "lat", message: error.message)
        }
        self.person = person
        self.coordinate = coordinate
        self.takenAt = takenAt
    }
}

/// Public Snaps: how long they count, and how they are posted and read.
extension LiveMapService {
    /// Snaps older than this are out of the glow and are dropped from the store.
    public static let snapWindow: TimeInterval = 24 * 3600

    /// Calls `observer` after every public Snap is durable.
    public func observeSnaps(_ observer: @escaping @Sendable (PublicSnap) -> Void) {
        snapObservers.add(observer)
    }

    /// Posts a public Snap taken at `snap.takenAt`, which must lie in (now − 24 h, now + 60 s]; checks first
    /// (throwing at once), then `completion` runs once the Snap is durable, saying whether it was kept: not when its
    /// poster's account was deleted first (the glow then never hears of it).
    public func postSnap(_ snap: PublicSnap, now: Date, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) throws {
        try Self.checkSnapTime(snap.takenAt, now: now)
        store.addSnap(snap) { [snapObservers, busHolder] result in
            if case .success(true) = result {
                snapObservers.send(snap)
                busHolder.publish(.snap(snap))
            }
            completion(result)
        }
    }

    /// Loads a batch of Snaps (an import), in one write; each must be inside the window at `now`.
    public func importSnaps(_ snaps: [PublicSnap], now: Date) throws {
        for (index, snap) in snaps.enumerated() {
            do {
                try Self.checkSnapTime(snap.takenAt, now: now)
            } catch .invalid(let bad) {
                throw LiveMapError.invalid(bad.prefixed("snaps[\(index)]."))
            }
        }
        try store.addSnaps(snaps)
        for snap in snaps {
            snapObservers.send(snap)
            busHolder.publish(.snap(snap))
        }
    }

    /// Throws unless a Snap taken at `takenAt` may be posted at `now`.
    public static func checkSnapTime(_ takenAt: Date, now: Date) throws(LiveMapError) {
        guard takenAt > now.addingTimeInterval(-snapWindow), takenAt <= now.addingTimeInterval(VisibilityRule.maxFixLead) else {
            throw .invalid(field: "at", message: "must be within the last 24 hours and at most \(Int(VisibilityRule.maxFixLead)) s after the server's clock")
        }
    }
}
