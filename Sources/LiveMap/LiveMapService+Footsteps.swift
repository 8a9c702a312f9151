import Foundation
import GeoCore

/// Footsteps through the service: only the person reads or changes their own (no other caller is ever given a way
/// to name someone else's), and nothing of them reaches anyone's map, the glow or the change log.
extension LiveMapService {
    /// Whether `me` keeps Footsteps, and how many places they hold.
    public func footstepsState(of me: PersonID) throws -> (on: Bool, places: Int) {
        (try store.footstepsOn(me), try store.footsteps(of: me).count)
    }

    /// Turns keeping on or off (off stops keeping; the places stay until cleared).
    public func setFootsteps(_ me: PersonID, on: Bool) throws {
        try store.setFootsteps(on: on, of: me)
    }

    /// `me`'s places, oldest first.
    public func footsteps(of me: PersonID) throws -> [Footstep] {
        try store.footsteps(of: me)
    }

    /// `me`'s places inside `box`, in no particular order, read through the store's index of places: a frame's.
    public func footsteps(of me: PersonID, in box: GeoBoundingBox) throws -> [Coordinate] {
        try store.footsteps(of: me, in: box)
    }

    /// Forgets every place of `me`'s Footsteps at once; returns how many there were.
    @discardableResult
    public func clearFootsteps(_ me: PersonID) throws -> Int {
        try store.clearFootsteps(of: me)
    }
}
