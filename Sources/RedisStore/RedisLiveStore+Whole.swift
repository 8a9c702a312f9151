import Foundation
import LiveMap

/// Everything a view holds, read by pages of the people index, each page's reads pipelined per node.
extension RedisLiveStore: WholeStoreReading {
    /// People read in one page.
    static let wholePage = 2_000

    public func readWhole(person: (Person, SharingSettings, LocationFix?) throws -> Void, ask: (PersonID, PersonID, FriendDetails) throws -> Void,
                          block: (PersonID, PersonID) throws -> Void) throws {
        try forEachPage { ids in
            let replies = try read(ids.flatMap { [["HMGET", RedisKeys.person($0)] + RedisKeys.settingFields, ["HMGET", RedisKeys.fix($0)] + RedisKeys.fixFields] })
            for (index, id) in ids.enumerated() {
                guard let (found, settings) = RedisKeys.person(id, replies[2 * index].elements.map(Self.emptyAsNull)) else { continue }
                try person(found, settings, RedisKeys.fix(replies[2 * index + 1].elements))
            }
        }
        try forEachPage { ids in
            for (id, reply) in zip(ids, try read(ids.map { ["HGETALL", RedisKeys.asks($0)] })) {
                let fields = reply.elements
                for pair in stride(from: 0, to: fields.count - 1, by: 2) {
                    guard let to = fields[pair].text, let details = fields[pair + 1].text else { continue }
                    try ask(id, PersonID(trusted: to), RedisKeys.details(details))
                }
            }
        }
        try forEachPage { ids in
            for (id, reply) in zip(ids, try read(ids.map { ["SMEMBERS", RedisKeys.blocks($0)] })) {
                for blocked in reply.elements.compactMap(\.text) { try block(id, PersonID(trusted: blocked)) }
            }
        }
    }

    public func readBirthdays(_ birthday: (PersonID, Birthday) throws -> Void) throws {
        try forEachPage { ids in
            for (id, reply) in zip(ids, try read(ids.map { ["HGET", RedisKeys.person($0), "birthday"] })) {
                if let found = RedisKeys.birthday(reply.text) { try birthday(id, found) }
            }
        }
    }

    public func readLiveShares(_ share: (LiveShare) throws -> Void) throws {
        try forEachPage { ids in
            for (id, reply) in zip(ids, try read(ids.map { ["HGETALL", RedisKeys.live($0)] })) {
                let fields = reply.elements
                for pair in stride(from: 0, to: fields.count - 1, by: 2) {
                    guard let to = fields[pair].text,
                          let found = RedisKeys.liveShare(fields[pair + 1].text, from: id, to: PersonID(trusted: to)) else { continue }
                    try share(found)
                }
            }
        }
    }

    public func readPerson(_ id: PersonID) throws -> (Person, SharingSettings, LocationFix?, Birthday?)? {
        let replies = try read([["HMGET", RedisKeys.person(id)] + RedisKeys.settingFields + ["birthday"], ["HMGET", RedisKeys.fix(id)] + RedisKeys.fixFields])
        let fields = replies[0].elements
        return RedisKeys.person(id, fields.prefix(RedisKeys.settingFields.count).map(Self.emptyAsNull))
            .map { ($0.0, $0.1, RedisKeys.fix(replies[1].elements), RedisKeys.birthday(fields.last?.text)) }
    }

    /// Calls `body` with the ids of the people index, a page at a time, in order.
    private func forEachPage(_ body: ([PersonID]) throws -> Void) throws {
        var after: String?
        while true {
            let ids = try read([["ZRANGEBYLEX", RedisKeys.people, after.map { "(" + $0 } ?? "-", "+", "LIMIT", "0", String(Self.wholePage)]])[0]
                .elements.compactMap(\.text)
            guard let last = ids.last else { return }
            try body(ids.map(PersonID.init(trusted:)))
            after = last
        }
    }
}
