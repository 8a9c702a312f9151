import Foundation
import GeoCore
import LiveMap

/// The live store's keys in Redis Cluster. Each person's keys share one hash tag, so they live in one slot:
/// a fact about a person (their settings, fix, asks, blocks) is one key, written in one command.
enum RedisKeys {
    /// The person's record, and the hash tag every key of theirs below starts with, so all of them share its slot.
    static func person(_ id: PersonID) -> String { "{p:\(id.rawValue)}" }
    static func fix(_ id: PersonID) -> String { "\(person(id)):fix" }
    /// Whom the person asked (the fact), field → "snapstreak,best".
    static func asks(_ id: PersonID) -> String { "\(person(id)):asks" }
    /// Who asked the person (an index of others' facts, for the friend list).
    static func askedBy(_ id: PersonID) -> String { "\(person(id)):askedby" }
    static func blocks(_ id: PersonID) -> String { "\(person(id)):blocks" }
    /// Who blocks the person (an index of others' facts, so a removed person leaves no id in anyone's blocks).
    static func blockedBy(_ id: PersonID) -> String { "\(person(id)):blockedby" }
    /// The person's Live Location shares (the fact), friend → "started_ms,until_ms,paused".
    static func live(_ id: PersonID) -> String { "\(person(id)):live" }
    /// Who shares live with the person (an index of others' facts).
    static func liveFrom(_ id: PersonID) -> String { "\(person(id)):livefrom" }
    /// The person's Footsteps, a list of "first_ms,last_ms,lat,lon", oldest first.
    static func footsteps(_ id: PersonID) -> String { "\(person(id)):steps" }
    /// The same places by where they are, a geo set of "first_ms,lat,lon" (the exact coordinates are the member's; the
    /// geohash only finds them), kept beside the list in its writes.
    static func footstepPlaces(_ id: PersonID) -> String { "\(person(id)):stepgeo" }
    static func tokens(_ id: PersonID) -> String { "\(person(id)):tokens" }
    static func token(_ hash: String) -> String { "{t:\(hash)}" }
    static let people = "{people}"
    /// The ids whose removal began and has not finished (`finishInterruptedRemovals` retries them).
    static let removals = "{removals}"
    /// One sharded pub/sub channel per slot (a hash tag found for each slot), so that a write announces its change
    /// in the slot it wrote, on the node that applied it, right after it.
    static let channels: [String] = {
        var found = [String?](repeating: nil, count: RedisCluster.slotCount)
        var left = RedisCluster.slotCount
        var counter = 0
        while left > 0 {
            let tag = String(counter, radix: 36)
            let slot = Int(CRC16.xmodem(tag.utf8)) % RedisCluster.slotCount
            if found[slot] == nil {
                found[slot] = "{\(tag)}:snapmap-changes"
                left -= 1
            }
            counter += 1
        }
        return found.compactMap { $0 }
    }()
    /// An hour's public Snaps, a set of "person,lat,lon,ms": the same Snap written twice is one.
    static func snaps(hour: Int) -> String { "{snapset:\(hour)}" }
    /// A Snap as a member of its hour's set.
    static func member(_ snap: PublicSnap) -> String {
        "\(snap.person.rawValue),\(snap.coordinate.lat),\(snap.coordinate.lon),\(milliseconds(snap.takenAt))"
    }

    static let settingFields = ["name", "color", "avatar", "ghost", "ghost_hours", "ghost_until_ms", "audience", "audience_ids"]
    static let fixFields = ["lat", "lon", "accuracy", "taken_ms", "place", "activity", "speed"]

    static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The field/value pairs of a person's settings.
    static func values(_ settings: SharingSettings) -> [String] {
        let ghost: [String]
        switch settings.ghost {
        case .off: ghost = ["ghost", "off", "ghost_hours", "0", "ghost_until_ms", "0"]
        case .timed(let hours, let until): ghost = ["ghost", "timed", "ghost_hours", String(hours), "ghost_until_ms", String(milliseconds(until))]
        case .untilTurnedOff: ghost = ["ghost", "untilOff", "ghost_hours", "0", "ghost_until_ms", "0"]
        }
        return ghost + ["audience", settings.audience.mode, "audience_ids", settings.audience.ids.map(\.rawValue).joined(separator: ",")]
    }

    /// A person and their settings from the `settingFields` values (nil when the person does not exist).
    static func person(_ id: PersonID, _ values: [RedisReply]) -> (Person, SharingSettings)? {
        guard values.count == settingFields.count, let name = values[0].text, let color = values[1].text,
              let person = try? Person(id: id, name: name, color: color, avatar: values[2].text) else { return nil }
        let ghost: GhostMode
        switch values[3].text {
        case "timed": ghost = .timed(hours: values[4].integer ?? 0, until: date(values[5].integer ?? 0))
        case "off": ghost = .off
        default: ghost = .untilTurnedOff
        }
        let ids = Set((values[7].text ?? "").split(separator: ",").map { PersonID(trusted: String($0)) })
        let audience: Audience
        switch values[6].text {
        case "friendsExcept": audience = .friendsExcept(ids)
        case "only": audience = .only(ids)
        default: audience = .friends
        }
        return (person, SharingSettings(ghost: ghost, audience: audience))
    }

    static func values(_ fix: LocationFix) -> [String] {
        ["lat", String(fix.coordinate.lat), "lon", String(fix.coordinate.lon), "accuracy", String(fix.accuracyMeters),
         "taken_ms", String(milliseconds(fix.takenAt)), "place", fix.place ?? "", "activity", fix.activity?.rawValue ?? "",
         "speed", fix.speedMetersPerSecond.map { String($0) } ?? ""]
    }

    static func fix(_ values: [RedisReply]) -> LocationFix? {
        guard values.count == fixFields.count, let lat = values[0].text.flatMap(Double.init), let lon = values[1].text.flatMap(Double.init),
              let accuracy = values[2].text.flatMap(Double.init), let taken = values[3].integer else { return nil }
        let place = values[4].text.flatMap { $0.isEmpty ? nil : $0 }
        return try? LocationFix(lat: lat, lon: lon, accuracyMeters: accuracy, takenAt: date(taken), place: place,
                                activity: values[5].text.flatMap(Activity.init(rawValue:)), speedMetersPerSecond: values[6].text.flatMap(Double.init))
    }

    /// A birthday field's `MM-DD` (nil for none).
    static func birthday(_ text: String?) -> Birthday? {
        text.flatMap { try? Birthday(parsing: $0) }
    }

    static func details(_ text: String?) -> FriendDetails {
        let parts = (text ?? "").split(separator: ",")
        return FriendDetails(snapstreak: parts.first.flatMap { Int($0) } ?? 0, bestFriend: parts.dropFirst().first == "1")
    }

    static func encode(_ share: LiveShare) -> String { "\(milliseconds(share.startedAt)),\(milliseconds(share.until)),\(share.paused ? 1 : 0)" }

    static func liveShare(_ text: String?, from: PersonID, to: PersonID) -> LiveShare? {
        let parts = (text ?? "").split(separator: ",").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return LiveShare(from: from, to: to, startedAt: date(parts[0]), until: date(parts[1]), paused: parts[2] == 1)
    }

    static func encode(_ details: FriendDetails) -> String { "\(details.snapstreak),\(details.bestFriend ? 1 : 0)" }

    /// Adds a person when the id is free, atomically (one key): 1 added, 0 taken.
    /// Marks a person who exists as going (`removing` in their hash); never makes a key for one who does not.
    static let markRemovalScript = "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end return redis.call('HSET', KEYS[1], 'removing', '1')"
    static let addPersonScript = "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end redis.call('HSET', KEYS[1], unpack(ARGV)) return 1"
    /// Sets fields (ARGV: field, value, …) of an existing person only: a write after a removal makes no key. 1 set, 0 none.
    static let updatePersonScript = "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end redis.call('HSET', KEYS[1], unpack(ARGV)) return 1"
    /// Sets (ARGV[1] "": clears) the birthday field of an existing person: 1 changed, 0 no such person.
    static let setBirthdayScript = """
        if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
        if ARGV[1] == '' then redis.call('HDEL', KEYS[1], 'birthday') else redis.call('HSET', KEYS[1], 'birthday', ARGV[1]) end
        return 1
        """
    /// Runs commands on a person's Footsteps (KEYS[2], KEYS[3]; ARGV: each command as its word count, then its words)
    /// only while the person (KEYS[1]) keeps them and is not marked as going: 1 run, 0 not.
    static let footstepWriteScript = """
        if redis.call('HGET', KEYS[1], 'footsteps') ~= '1' or redis.call('HEXISTS', KEYS[1], 'removing') == 1 then return 0 end
        local i = 1
        while i <= #ARGV do
            local count = tonumber(ARGV[i])
            redis.call(unpack(ARGV, i + 1, i + count))
            i = i + count + 1
        end
        return 1
        """
    /// Keeps a fix (`values`) in KEYS[1] only when newer than the stored one: 0 not kept, 1 kept, 2 kept by a person
    /// (KEYS[2], when given) who keeps Footsteps, so a move of anyone else needs no other round; never for a person
    /// (KEYS[2]) who does not exist, so a fix written after a removal leaves no key. Nothing expires by
    /// Redis's clock: the service refuses fixes outside the rule's window, and the rule hides old ones, as on SQLite.
    static let recordFixScript = """
        if KEYS[2] and redis.call('HLEN', KEYS[2]) == 0 then return 0 end
        local stored = redis.call('HGET', KEYS[1], 'taken_ms')
        if stored and tonumber(stored) >= tonumber(ARGV[8]) then return 0 end
        redis.call('HSET', KEYS[1], unpack(ARGV, 1, 14))
        if KEYS[2] and redis.call('HGET', KEYS[2], 'footsteps') == '1' then return 2 end
        return 1
        """
}
