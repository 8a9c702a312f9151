import Foundation
import SQLiteKit

/// Stores that hand over everything a `LiveView` holds in a few long reads, a page at a time, instead of three
/// reads a person.
public protocol WholeStoreReading: LiveStore {
    /// Calls `person` for everyone (with their settings and fix), then `ask` for every ask with its details, then
    /// `block` for every block (blocker first).
    func readWhole(person: (Person, SharingSettings, LocationFix?) throws -> Void, ask: (PersonID, PersonID, FriendDetails) throws -> Void,
                   block: (PersonID, PersonID) throws -> Void) throws
    /// Calls `share` for every Live Location share.
    func readLiveShares(_ share: (LiveShare) throws -> Void) throws
    /// Calls `birthday` for everyone who set one.
    func readBirthdays(_ birthday: (PersonID, Birthday) throws -> Void) throws
    /// One person with their settings, fix and birthday, in one read (one round trip); nil when there is no such person.
    func readPerson(_ id: PersonID) throws -> (Person, SharingSettings, LocationFix?, Birthday?)?
}

extension SQLiteLiveStore: WholeStoreReading {
    /// Rows read in one query.
    static let wholePage = 50_000

    public func readWhole(person: (Person, SharingSettings, LocationFix?) throws -> Void, ask: (PersonID, PersonID, FriendDetails) throws -> Void,
                          block: (PersonID, PersonID) throws -> Void) throws {
        var ids: [Int: PersonID] = [:]
        var last = -1
        while true {
            let rows = try read { try $0.query("SELECT \(SQLiteSchema.personColumns), p.ghost, p.ghost_hours, p.ghost_until_ms, p.audience, p.audience_ids, "
                                               + "\(SQLiteSchema.fixColumns), p.row FROM people p WHERE p.row > ? ORDER BY p.row LIMIT ?",
                                               [.integer(last), .integer(Self.wholePage)]) }
            guard let end = rows.last?[16].integer else { break }
            for row in rows {
                let found = SQLiteSchema.person(row)
                ids[row[16].integer ?? 0] = found.id
                try person(found, SQLiteSchema.settings(row, from: 4), SQLiteSchema.fix(row, from: 9))
            }
            last = end
        }
        var (from, to) = (-1, -1)
        while true {
            let rows = try read { try $0.query("SELECT from_row, to_row, snapstreak, best FROM asks WHERE (from_row, to_row) > (?, ?) ORDER BY from_row, to_row LIMIT ?",
                                               [.integer(from), .integer(to), .integer(Self.wholePage)]) }
            guard let end = rows.last else { break }
            for row in rows {
                guard let first = ids[row[0].integer ?? -1], let second = ids[row[1].integer ?? -1] else { continue }
                try ask(first, second, FriendDetails(snapstreak: row[2].integer ?? 0, bestFriend: row[3].integer == 1))
            }
            (from, to) = (end[0].integer ?? 0, end[1].integer ?? 0)
        }
        for row in try read({ try $0.query("SELECT blocker_row, blocked_row FROM blocks") }) {
            guard let blocker = ids[row[0].integer ?? -1], let blocked = ids[row[1].integer ?? -1] else { continue }
            try block(blocker, blocked)
        }
    }

    public func readPerson(_ id: PersonID) throws -> (Person, SharingSettings, LocationFix?, Birthday?)? {
        let row = try read { try $0.query("SELECT \(SQLiteSchema.personColumns), p.ghost, p.ghost_hours, p.ghost_until_ms, p.audience, p.audience_ids, "
                                          + "\(SQLiteSchema.fixColumns), p.birth_month, p.birth_day FROM people p WHERE p.id = ?", [.text(id.rawValue)]).first }
        return row.map { (SQLiteSchema.person($0), SQLiteSchema.settings($0, from: 4), SQLiteSchema.fix($0, from: 9), SQLiteSchema.birthday($0, from: 16)) }
    }
}
