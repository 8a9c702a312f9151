import Foundation
import GeoCore
import LiveMap

/// Footsteps on Redis Cluster: a flag in the person's hash and a list of places ("first_ms,last_ms,lat,lon", oldest
/// first) in their slot, with the same places in a geo set for a frame's part of the map. A kept fix goes into them
/// after its own write, thinned by `Footsteps.next` as on SQLite.
extension RedisLiveStore {
    /// Places older than the year dropped in one write at most (the rest go with the next fixes).
    static let footstepPrunesPerWrite = 64

    public func footstepsOn(_ id: PersonID) throws -> Bool {
        try read([["HGET", RedisKeys.person(id), "footsteps"]])[0].text == "1"
    }

    public func setFootsteps(on: Bool, of id: PersonID) throws {
        try write([["EVAL", RedisKeys.updatePersonScript, "1", RedisKeys.person(id), "footsteps", on ? "1" : "0"]])
    }

    public func footsteps(of id: PersonID) throws -> [Footstep] {
        try read([["LRANGE", RedisKeys.footsteps(id), "0", "-1"]])[0].elements.compactMap { Self.footstep($0.text) }
    }

    /// Through the geo set, searched a little beyond the box (a circle around it) and filtered by the members' own
    /// coordinates; the whole list, filtered, when the two do not hold as many places (a history kept before the geo
    /// set, or two places that share a member) or the box reaches past the latitudes a geo set holds.
    public func footsteps(of id: PersonID, in box: GeoBoundingBox) throws -> [Coordinate] {
        let inside = { (coordinate: Coordinate) in (box.south...box.north).contains(coordinate.lat) && (box.west...box.east).contains(coordinate.lon) }
        let centre = try Coordinate(lat: (box.south + box.north) / 2, lon: (box.west + box.east) / 2)
        let corners = try [(box.south, box.west), (box.south, box.east), (box.north, box.west), (box.north, box.east)].map { try Coordinate(lat: $0.0, lon: $0.1) }
        let reach = corners.map { Geodesic.wgs84.distance(centre, $0) }.max() ?? 0
        let replies = try read([["LLEN", RedisKeys.footsteps(id)], ["ZCARD", RedisKeys.footstepPlaces(id)],
                                ["GEOSEARCH", RedisKeys.footstepPlaces(id), "FROMLONLAT", String(centre.lon), String(centre.lat),
                                 "BYRADIUS", String(reach * 1.01 + 10), "m"]])
        guard max(abs(box.south), abs(box.north)) < Self.geoLatitudeLimit, replies[0].integer == replies[1].integer else {
            return try footsteps(of: id).map(\.coordinate).filter(inside)
        }
        return replies[2].elements.compactMap { Self.place($0.text) }.filter(inside)
    }

    /// The latitudes a geo set holds (Redis's, a hair inside).
    static let geoLatitudeLimit = 85.05

    public func clearFootsteps(of id: PersonID) throws -> Int {
        let count = try read([["LLEN", RedisKeys.footsteps(id)]])[0].integer ?? 0
        try write([["DEL", RedisKeys.footsteps(id)], ["DEL", RedisKeys.footstepPlaces(id)]])
        return count
    }

    /// A place's member in the geo set: "first_ms,lat,lon".
    static func member(_ place: Footstep) -> String {
        "\(RedisKeys.milliseconds(place.firstVisit)),\(place.coordinate.lat),\(place.coordinate.lon)"
    }

    /// The coordinate of a member of the geo set.
    static func place(_ member: String?) -> Coordinate? {
        let parts = (member ?? "").split(separator: ",")
        guard parts.count == 3, let lat = Double(parts[1]), let lon = Double(parts[2]) else { return nil }
        return try? Coordinate(lat: lat, lon: lon)
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
        guard let commands = try footstepCommands(after: fix, of: id) else { return }
        try writeFootstep(commands, of: id)
    }

    /// The writes that keep `fix` in the person's Footsteps, from one read of them (nil when they keep none): the places
    /// that go (the year's, then the count's: one at most) leave the geo set in the same write.
    func footstepCommands(after fix: LocationFix, of id: PersonID) throws -> [[String]]? {
        let (key, places) = (RedisKeys.footsteps(id), RedisKeys.footstepPlaces(id))
        let state = try read([["HGET", RedisKeys.person(id), "footsteps"], ["LINDEX", key, "-1"], ["LRANGE", key, "0", String(Self.footstepPrunesPerWrite)],
                              ["LLEN", key]])
        guard state[0].text == "1" else { return nil }
        let (place, extendsLast) = Footsteps.next(after: Self.footstep(state[1].text), coordinate: fix.coordinate, at: fix.takenAt)
        var commands = [extendsLast ? ["LSET", key, "-1", Self.encode(place)] : ["RPUSH", key, Self.encode(place)], ["LTRIM", key, String(-Footsteps.maxPlaces), "-1"]]
        if !extendsLast, abs(place.coordinate.lat) < Self.geoLatitudeLimit {
            commands.append(["GEOADD", places, String(place.coordinate.lon), String(place.coordinate.lat), Self.member(place)])
        }
        let cutoff = fix.takenAt.addingTimeInterval(-Footsteps.keptFor)
        let head = state[2].elements.prefix(Self.footstepPrunesPerWrite)
        let old = head.prefix { Self.footstep($0.text).map { $0.lastVisit < cutoff } ?? true }.count
        if old > 0 { commands.insert(["LPOP", key, String(old)], at: 0) }
        let trimmed = max(0, (state[3].integer ?? 0) - old + (extendsLast ? 0 : 1) - Footsteps.maxPlaces)
        let gone = state[2].elements.dropFirst(old).prefix(trimmed) + head.prefix(old)
        let members = gone.compactMap { Self.footstep($0.text).map(Self.member) }
        if !members.isEmpty { commands.append(["ZREM", places] + members) }
        return commands
    }

    /// Runs `commands` in one script that first checks, in the person's slot, that they still keep Footsteps and are
    /// not being removed: a place read before a deletion and written after its mark (or after it) is never written.
    func writeFootstep(_ commands: [[String]], of id: PersonID) throws {
        let words = commands.flatMap { [String($0.count)] + $0 }
        try write([["EVAL", RedisKeys.footstepWriteScript, "3", RedisKeys.person(id), RedisKeys.footsteps(id), RedisKeys.footstepPlaces(id)] + words])
    }
}
