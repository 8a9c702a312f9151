import Foundation
import GeoCore
import LiveMap

/// Footsteps on Redis Cluster: a flag in the person's hash and a list of places ("first_ms,last_ms,lat,lon", oldest
/// first) in their slot. A kept fix goes into them after its own write, thinned by `Footsteps.next` as on SQLite.
extension RedisLiveStore {
    /// Places older than the year dropped in one write at most (the rest go with the next fixes).
    static let footstepPrunesPerWrite = 64

    public func footstepsOn(_ id: PersonID) throws -> Bool {
        try read([["HGET", RedisKeys.person(id), "footsteps"]])[0].text == "1"
    }

    public func setFootsteps(on: Bool, of id: PersonID) throws {
        guard try read([["EXISTS", RedisKeys.person(id)]])[0].integer == 1 else { return }
        try write([["HSET", RedisKeys.person(id), "footsteps", on ? "1" : "0"]])
    }

    public func footsteps(of id: PersonID) throws -> [Footstep] {
        try read([["LRANGE", RedisKeys.footsteps(id), "0", "-1"]])[0].elements.compactMap { Self.footstep($0.text) }
    }

    public func clearFootsteps(of id: PersonID) throws -> Int {
        let count = try read([["LLEN", RedisKeys.footsteps(id)]])[0].integer ?? 0
        try write([["DEL", RedisKeys.footsteps(id)]])
        return count
    }

    static func footstep(_ text: String?) -> Footstep? {
        let parts = (text ?? "").split(separator: ",")
        guard parts.count == 4, let first = Int(parts[0]), let last = Int(parts[1]), let lat = Double(parts[2]), let lon = Double(parts[3]),
              let coordinate = try? Coordinate(lat: lat, lon: lon) else { return nil }
        return Footstep(coordinate: coordinate, firstVisit: RedisKeys.date(first), lastVisit: RedisKeys.date(last))
    }

    static func encode(_ place: Footstep) -> String {
        "\(RedisKeys.milliseconds(place.firstVisit)),\(RedisKeys.milliseconds(place.lastVisit)),\(place.coordinate.lat),\(place.coordinate.lon)"
    }

    /// After a kept fix: into the person's Footsteps when they keep them, with the year and count bounds.
    func keepFootstep(_ fix: LocationFix, of id: PersonID) throws {
        let key = RedisKeys.footsteps(id)
        let state = try read([["HGET", RedisKeys.person(id), "footsteps"], ["LINDEX", key, "-1"], ["LRANGE", key, "0", String(Self.footstepPrunesPerWrite - 1)]])
        guard state[0].text == "1" else { return }
        let (place, extendsLast) = Footsteps.next(after: Self.footstep(state[1].text), coordinate: fix.coordinate, at: fix.takenAt)
        var commands = [extendsLast ? ["LSET", key, "-1", Self.encode(place)] : ["RPUSH", key, Self.encode(place)], ["LTRIM", key, String(-Footsteps.maxPlaces), "-1"]]
        let cutoff = fix.takenAt.addingTimeInterval(-Footsteps.keptFor)
        let old = state[2].elements.prefix { Self.footstep($0.text).map { $0.lastVisit < cutoff } ?? true }.count
        if old > 0 { commands.insert(["LPOP", key, String(old)], at: 0) }
        try write(commands)
    }
}
