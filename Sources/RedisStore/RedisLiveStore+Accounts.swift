import Foundation
import LiveMap

/// The one-read standing of another person, and the writes that end things: a token, a whole person.
extension RedisLiveStore {
    /// Nil for someone who does not exist, blocks `me`, or is being removed (a removal that failed part way included).
    public func standing(of other: PersonID, for me: PersonID) throws -> Standing? {
        let replies = try read([["EXISTS", RedisKeys.person(other)], ["SISMEMBER", RedisKeys.blocks(other), me.rawValue],
                                ["HEXISTS", RedisKeys.asks(me), other.rawValue], ["HEXISTS", RedisKeys.asks(other), me.rawValue],
                                ["SISMEMBER", RedisKeys.blocks(me), other.rawValue], ["HEXISTS", RedisKeys.person(other), "removing"]])
        guard replies[0].integer == 1, replies[1].integer != 1, replies[5].integer != 1 else { return nil }
        return Standing(meAsk: replies[2].integer == 1, theyAsk: replies[3].integer == 1, meBlocks: replies[4].integer == 1)
    }

    /// The person's settings and fix once, then each viewer's side of the relation, in one pipeline. An ask left by
    /// someone who does not exist (written for an id that was never added, as SQLite's keys refuse) is no viewer.
    public func viewers(of person: PersonID) throws -> [Candidate] {
        let askers = try read([["SMEMBERS", RedisKeys.askedBy(person)]])[0].elements.compactMap(\.text).map(PersonID.init(trusted:)).sorted()
        let own = try read([["HMGET", RedisKeys.person(person)] + RedisKeys.settingFields, ["HMGET", RedisKeys.fix(person)] + RedisKeys.fixFields,
                            ["HGET", RedisKeys.person(person), "birthday"]])
        guard let (found, settings) = RedisKeys.person(person, own[0].elements.map(Self.emptyAsNull)) else { return [] }
        let fix = RedisKeys.fix(own[1].elements)
        let replies = try read(askers.flatMap { viewer in
            [["HGET", RedisKeys.asks(viewer), person.rawValue], ["HEXISTS", RedisKeys.asks(person), viewer.rawValue],
             ["SISMEMBER", RedisKeys.blocks(person), viewer.rawValue], ["SISMEMBER", RedisKeys.blocks(viewer), person.rawValue],
             ["HGET", RedisKeys.live(person), viewer.rawValue], ["EXISTS", RedisKeys.person(viewer)]]
        })
        return askers.enumerated().compactMap { index, viewer in
            let base = 6 * index
            guard let details = replies[base].text, replies[base + 5].integer == 1 else { return nil }
            let facts = VisibilityFacts(viewer: viewer, person: person, viewerAsked: true, personAsked: replies[base + 1].integer == 1,
                                        blocked: replies[base + 2].integer == 1 || replies[base + 3].integer == 1, settings: settings, fix: fix,
                                        live: RedisKeys.liveShare(replies[base + 4].text, from: person, to: viewer))
            return Candidate(person: found, facts: facts, details: RedisKeys.details(details), birthday: RedisKeys.birthday(own[2].text))
        }
    }

    public func removeToken(hash: String) throws -> PersonID? {
        guard let owner = try read([["GET", RedisKeys.token(hash)]])[0].text.map(PersonID.init(trusted:)) else { return nil }
        try write([["DEL", RedisKeys.token(hash)], ["SREM", RedisKeys.tokens(owner), hash]], announcing: [.change(.sessions(owner))])
        return owner
    }

    /// Every key of the person goes, their id leaves the others' asks and blocks, and their Snaps leave the hourly
    /// sets; then every node rewrites its append-only file, which logged all of it (`RedisCluster.rewriteAppendOnlyFiles`).
    /// Audience lists keep the id as their owners wrote it (as on SQLite: see `SQLiteLiveStore.removePerson`).
    public func removePerson(_ id: PersonID) throws -> Bool {
        try finishRemoval(of: id, facts: beginRemoval(of: id))
    }

    /// Finishes, one by one, the removals listed as begun (a failure stopped them after their mark).
    public func finishInterruptedRemovals() throws -> [PersonID] {
        let begun = try read([["SMEMBERS", RedisKeys.removals]])[0].elements.compactMap(\.text).map(PersonID.init(trusted:))
        return try begun.filter { try removePerson($0) }
    }

    /// Lists the removal as begun (only for a person who exists, so that no gone id is written again), marks the
    /// person as going, then reads whose asks, blocks, tokens and shares name them. An ask, a block or a share
    /// written after this read finds the mark when it checks after its write (`goneOrGoing`), so it takes itself back.
    func beginRemoval(of id: PersonID) throws -> [RedisReply] {
        if try read([["EXISTS", RedisKeys.person(id)]])[0].integer == 1 { try write([["SADD", RedisKeys.removals, id.rawValue]]) }
        try write([["EVAL", RedisKeys.markRemovalScript, "1", RedisKeys.person(id)]])
        return try read([["EXISTS", RedisKeys.person(id)], ["HKEYS", RedisKeys.asks(id)], ["SMEMBERS", RedisKeys.askedBy(id)],
                         ["SMEMBERS", RedisKeys.blocks(id)], ["SMEMBERS", RedisKeys.blockedBy(id)], ["SMEMBERS", RedisKeys.tokens(id)],
                         ["HKEYS", RedisKeys.live(id)], ["SMEMBERS", RedisKeys.liveFrom(id)]])
    }

    /// Whether any of these people is gone or marked as going: a write naming them that reads this after it lands is
    /// either found by their removal's read or sees this, and takes itself back.
    func goneOrGoing(_ ids: [PersonID]) throws -> Bool {
        let replies = try read(ids.map(RedisKeys.person).flatMap { [["EXISTS", $0], ["HEXISTS", $0, "removing"]] })
        return stride(from: 0, to: replies.count, by: 2).contains { replies[$0].integer != 1 || replies[$0 + 1].integer == 1 }
    }

    /// Removes what `beginRemoval` found, then the person's own keys, their marked hash last. Until that last write
    /// the person is marked as going, so a removal that fails part way (a master refusing writes) leaves their key and
    /// lists for a retry to read again and finish; it used to delete them with the rest, in one write over several
    /// masters, and a retry then found no key, so the tokens and others' asks it had not reached stayed naming the id.
    func finishRemoval(of id: PersonID, facts: [RedisReply]) throws -> Bool {
        guard facts[0].integer == 1 else {
            try removeOrders(of: id)
            try write([["SREM", RedisKeys.removals, id.rawValue]])
            return false
        }
        func ids(_ index: Int) -> [PersonID] { facts[index].elements.compactMap(\.text).map(PersonID.init(trusted:)) }
        var commands: [[String]] = []
        commands += ids(1).map { ["SREM", RedisKeys.askedBy($0), id.rawValue] }
        commands += ids(2).map { ["HDEL", RedisKeys.asks($0), id.rawValue] }
        commands += ids(3).map { ["SREM", RedisKeys.blockedBy($0), id.rawValue] }
        commands += ids(4).map { ["SREM", RedisKeys.blocks($0), id.rawValue] }
        commands += facts[5].elements.compactMap(\.text).map { ["DEL", RedisKeys.token($0)] }
        commands += ids(6).map { ["SREM", RedisKeys.liveFrom($0), id.rawValue] }
        commands += ids(7).map { ["HDEL", RedisKeys.live($0), id.rawValue] }
        commands.append(["ZREM", RedisKeys.people, id.rawValue])
        try write(commands, announcing: [.change(.removed(id))])
        try removeOrders(of: id)
        try removeSnaps(of: id)
        let own = [RedisKeys.fix(id), RedisKeys.asks(id), RedisKeys.askedBy(id), RedisKeys.blocks(id), RedisKeys.blockedBy(id), RedisKeys.tokens(id),
                   RedisKeys.live(id), RedisKeys.liveFrom(id), RedisKeys.footsteps(id), RedisKeys.footstepPlaces(id), RedisKeys.person(id)]
        try write(own.map { ["DEL", $0] } + [["SREM", RedisKeys.removals, id.rawValue]], announcing: [.change(.removed(id))])
        cluster.rewriteAppendOnlyFiles()
        return true
    }

    /// Takes the person's entries out of every hourly set of Snaps that may hold one, announcing the removal in each
    /// set's slot: a replica that heard one of them after the removal's own announcement drops it then.
    private func removeSnaps(of id: PersonID) throws {
        let now = Self.hour(clock())
        let hours = Array((now - 2 * Self.snapHoursKept)...(now + 2))
        let sets = try read(hours.map { ["SMEMBERS", RedisKeys.snaps(hour: $0)] })
        let commands: [[String]] = zip(hours, sets).compactMap { hour, set in
            let mine = set.elements.compactMap(\.text).filter { $0.hasPrefix(id.rawValue + ",") }
            return mine.isEmpty ? nil : ["SREM", RedisKeys.snaps(hour: hour)] + mine
        }
        if !commands.isEmpty { try write(commands, announcing: [.change(.removed(id))]) }
    }
}
