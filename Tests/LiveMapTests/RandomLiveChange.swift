import Foundation
import GeoCore
import LiveMap

/// One random change of the live state, as the view-against-store tests make them: `a` asks `b` (often both ways),
/// unfriends, blocks or unblocks them, changes their Ghost Mode and audience (naming people `other` picks, up to
/// `listedMost` - 1 of them), sends a fix up to four hours old, or leaves and comes back; refusals are part of it.
enum RandomLiveChange {
    static func make(by writer: LiveMapService, _ a: String, _ b: String, random: inout SplitMix64, now: Date, listedMost: UInt64,
                     other: (inout SplitMix64) -> String) throws {
        let me = PersonID(trusted: a)
        switch random.next() % 16 {
        case 0..<6:
            _ = try? writer.requestFriend(me, b)
            if random.next() % 3 != 0 { _ = try? writer.requestFriend(PersonID(trusted: b), a) }
        case 6: try? writer.removeFriend(me, b)
        case 7: try? writer.block(me, b)
        case 8: try? writer.unblock(me, b)
        case 9, 10:
            let ghost = ["off", "off", "3h", "24h", "untilOff"][Int(random.next() % 5)]
            let mode = ["friends", "friends", "friendsExcept", "only"][Int(random.next() % 4)]
            let listed = mode == "friends" ? [] : (0..<Int(random.next() % listedMost)).map { _ in other(&random) }
            _ = try? writer.setSharing(me, ghost: ghost, audience: (mode, listed), now: now)
        case 11..<15:
            let age = Double(random.next() % (4 * 3600)) - 30
            let coordinate = try Coordinate(lat: 40.70 + random.unit() * 0.03, lon: -73.97 + random.unit() * 0.03)
            _ = try? writer.updateLocation(me, fix: LocationFix(coordinate: coordinate, accuracyMeters: 8, takenAt: now.addingTimeInterval(-age)), now: now)
        default:
            if (try? writer.removePerson(a)) == nil, (try? writer.addPerson(id: a, name: "Person \(a) again")) != nil {
                _ = try? writer.setSharing(me, ghost: "off", audience: nil, now: now)
            }
        }
    }
}
