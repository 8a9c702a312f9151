import Foundation
import GeoCore
import LiveMap

/// A viewer's candidates in one pipelined round per node, and public Snaps in hourly sets that expire.
extension RedisLiveStore {
    /// How long an hour's Snaps are kept after the hour: the glow's window and a margin.
    static let snapHoursKept = 26

    /// Nobody, for a viewer who does not exist (as on SQLite, whatever asks were written under their id).
    public func candidates(of viewer: PersonID) throws -> [Candidate] {
        let own = try read([["HGETALL", RedisKeys.asks(viewer)], ["EXISTS", RedisKeys.person(viewer)]])
        guard own[1].integer == 1 else { return [] }
        let asked = own[0].elements
        var others: [(PersonID, FriendDetails)] = []
        for index in stride(from: 0, to: asked.count - 1, by: 2) {
            guard let id = asked[index].text else { continue }
            others.append((PersonID(trusted: id), RedisKeys.details(asked[index + 1].text)))
        }
        return try facts(viewer: viewer, others: others.map { ($0.0, true, $0.1) }).sorted { $0.person.id < $1.person.id }
    }

    public func candidate(viewer: PersonID, person: PersonID) throws -> Candidate? {
        let own = try read([["HGET", RedisKeys.asks(viewer), person.rawValue], ["EXISTS", RedisKeys.person(viewer)]])
        guard own[1].integer == 1 else { return nil }
        let mine = own[0]
        return try facts(viewer: viewer, others: [(person, mine.text != nil, RedisKeys.details(mine.text))]).first
    }

    /// Everything the rule needs about each other person, read in one pipeline (grouped per node by the cluster).
    private func facts(viewer: PersonID, others: [(PersonID, Bool, FriendDetails)]) throws -> [Candidate] {
        let perOther = 7
        let replies = try read(others.flatMap { other, _, _ in
            [["HMGET", RedisKeys.person(other)] + RedisKeys.settingFields, ["HMGET", RedisKeys.fix(other)] + RedisKeys.fixFields,
             ["HEXISTS", RedisKeys.asks(other), viewer.rawValue], ["SISMEMBER", RedisKeys.blocks(other), viewer.rawValue],
             ["SISMEMBER", RedisKeys.blocks(viewer), other.rawValue], ["HGET", RedisKeys.live(other), viewer.rawValue],
             ["HGET", RedisKeys.person(other), "birthday"]]
        })
        return others.enumerated().compactMap { index, entry in
            let (other, viewerAsked, details) = entry
            let base = index * perOther
            guard let (person, settings) = RedisKeys.person(other, replies[base].elements.map(Self.emptyAsNull)) else { return nil }
            let facts = VisibilityFacts(viewer: viewer, person: other, viewerAsked: viewerAsked, personAsked: replies[base + 2].integer == 1,
                                        blocked: replies[base + 3].integer == 1 || replies[base + 4].integer == 1, settings: settings,
                                        fix: RedisKeys.fix(replies[base + 1].elements),
                                        live: RedisKeys.liveShare(replies[base + 5].text, from: other, to: viewer))
            return Candidate(person: person, facts: facts, details: details, birthday: RedisKeys.birthday(replies[base + 6].text))
        }
    }

    public func addSnaps(_ snaps: [PublicSnap]) throws {
        guard !snaps.isEmpty else { return }
        var byHour: [Int: [String]] = [:]
        for snap in snaps {
            byHour[Self.hour(snap.takenAt), default: []].append(RedisKeys.member(snap))
        }
        // An hour already past the Snaps kept (by the server's clock) is not written: nothing reads it.
        let now = clock()
        let commands = byHour.sorted { $0.key < $1.key }.flatMap { hour, entries in
            guard let left = Self.secondsLeft(hour: hour, now: now) else { return [[String]]() }
            return [["SADD", RedisKeys.snaps(hour: hour)] + entries, ["EXPIRE", RedisKeys.snaps(hour: hour), String(left)]]
        }
        // Each Snap is announced in its hour's slot, after that hour's set has it.
        let announcements: [[String]] = snaps.compactMap { snap in
            let hour = Self.hour(snap.takenAt)
            return Self.secondsLeft(hour: hour, now: now) == nil ? nil : announcement(.snap(snap), slot: RedisCluster.slot(of: RedisKeys.snaps(hour: hour)))
        }
        if !commands.isEmpty { try write(commands + announcements) }
    }

    /// A posted Snap, kept while its poster is a person not being removed.
    func addPostedSnap(_ snap: PublicSnap) throws -> Bool {
        guard try !goneOrGoing([snap.person]) else { return false }
        return try keepPostedSnap(snap)
    }

    /// Writes the Snap of a poster found a moment before. A deletion marks the person before it sweeps their Snaps out
    /// of the hourly sets, so a Snap written as the account goes is either found by that sweep or sees the mark (or the
    /// key gone) here and is taken back; both announce the removal again in the Snap's slot, after the Snap's own
    /// announcement there, so a replica that heard the Snap (after the removal, which another slot announced) drops it.
    func keepPostedSnap(_ snap: PublicSnap) throws -> Bool {
        try addSnaps([snap])
        guard try goneOrGoing([snap.person]) else { return true }
        try write([["SREM", RedisKeys.snaps(hour: Self.hour(snap.takenAt)), RedisKeys.member(snap)]], announcing: [.change(.removed(snap.person))])
        return false
    }

    /// The seconds an hour's set of Snaps has left at `now` (the server's): it goes `snapHoursKept` hours after the
    /// hour ends; nil when that is past.
    static func secondsLeft(hour: Int, now: Date) -> Int? {
        let left = (hour + 1 + snapHoursKept) * 3600 - Int(now.timeIntervalSince1970.rounded(.down))
        return left > 0 ? left : nil
    }

    public func snaps(since: Date) throws -> [PublicSnap] {
        let first = Self.hour(since)
        let hours = Array(first...(first + 2 * Self.snapHoursKept))
        let sets = try read(hours.map { ["SMEMBERS", RedisKeys.snaps(hour: $0)] })
        let cutoff = RedisKeys.milliseconds(since)
        // Sets have no order: taken time, then the entry, so every replica sums the glow in the same order.
        return sets.flatMap { $0.elements.compactMap(\.text).compactMap { entry in Self.snap(entry).map { ($0, entry) } } }
            .filter { RedisKeys.milliseconds($0.0.takenAt) >= cutoff }
            .sorted { ($0.0.takenAt, $0.1) < ($1.0.takenAt, $1.1) }
            .map(\.0)
    }

    public func pruneSnaps(before: Date) throws -> Int {
        let boundary = Self.hour(before)
        let hours = Array((boundary - 2 * Self.snapHoursKept)...boundary)
        let sets = try read(hours.map { ["SMEMBERS", RedisKeys.snaps(hour: $0)] })
        let cutoff = RedisKeys.milliseconds(before)
        let removals = zip(hours, sets).compactMap { hour, set -> [String]? in
            let old = set.elements.compactMap(\.text).filter { entry in Self.snap(entry).map { RedisKeys.milliseconds($0.takenAt) < cutoff } ?? true }
            return old.isEmpty ? nil : ["SREM", RedisKeys.snaps(hour: hour)] + old
        }
        guard !removals.isEmpty else { return 0 }
        return try write(removals).compactMap(\.integer).reduce(0, +)
    }

    static func hour(_ date: Date) -> Int { Int((date.timeIntervalSince1970 / 3600).rounded(.down)) }

    static func snap(_ entry: String) -> PublicSnap? {
        let parts = entry.split(separator: ",")
        guard parts.count == 4, let lat = Double(parts[1]), let lon = Double(parts[2]), let ms = Int(parts[3]),
              let coordinate = try? Coordinate(lat: lat, lon: lon) else { return nil }
        return try? PublicSnap(person: PersonID(trusted: String(parts[0])), coordinate: coordinate, takenAt: RedisKeys.date(ms))
    }
}
