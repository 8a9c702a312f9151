import Foundation
import Testing
@testable import LiveMap

/// The part of the conformance suite about Live Location shares (run by `StoreConformance.run` on every store).
extension StoreConformance {
    static func liveShares(_ store: any LiveStore) throws {
        let (dan, eve, fay) = (try PersonID("dan"), try PersonID("eve"), try PersonID("fay"))
        for id in [dan, eve, fay] { _ = try store.addPerson(person(id.rawValue), settings: .newPerson) }
        for (a, b) in [(dan, eve), (eve, dan), (dan, fay), (fay, dan)] { try store.addAsk(from: a, to: b, details: FriendDetails()) }
        let share = LiveShare(from: dan, to: eve, startedAt: t0, until: t0.addingTimeInterval(3600), paused: false)
        try store.setLiveShare(share)
        #expect(try store.candidate(viewer: eve, person: dan)?.facts.live == share)
        #expect(try store.candidates(of: eve).first { $0.person.id == dan }?.facts.live == share)
        #expect(try store.candidate(viewer: dan, person: eve)?.facts.live == nil, "a share goes one way")
        #expect(try store.candidate(viewer: fay, person: dan)?.facts.live == nil, "to one friend")
        let seenBy = Dictionary(uniqueKeysWithValues: try store.viewers(of: dan).map { ($0.facts.viewer, $0.facts.live) })
        #expect(seenBy[eve] == share && seenBy[fay] == .some(nil))
        #expect(try store.liveShares(of: dan) == [share] && store.liveShares(of: eve) == [share] && store.liveShares(of: fay).isEmpty)

        try store.setLiveShare(share.with(paused: true))
        #expect(try store.liveShares(of: eve) == [share.with(paused: true)], "a share is replaced, not added to")
        let back = LiveShare(from: eve, to: dan, startedAt: t0.addingTimeInterval(1), until: t0.addingTimeInterval(901), paused: false)
        try store.setLiveShare(back)
        #expect(try store.liveShares(of: dan) == [share.with(paused: true), back], "both ways, by sharer")
        #expect(try store.removeLiveShare(from: dan, to: eve) && !store.removeLiveShare(from: dan, to: eve))
        #expect(try store.liveShares(of: eve) == [back])

        try store.setLiveShare(LiveShare(from: dan, to: fay, startedAt: t0, until: t0.addingTimeInterval(900), paused: false))
        try store.removeAsks(between: fay, and: dan)
        #expect(try store.liveShares(of: fay).isEmpty, "the friendship's end removes the pair's shares")
        try store.addBlock(by: dan, on: eve)
        #expect(try store.liveShares(of: eve).isEmpty && store.candidate(viewer: dan, person: eve)?.facts.live == nil, "so does a block")

        for (a, b) in [(dan, fay), (fay, dan)] { try store.addAsk(from: a, to: b, details: FriendDetails()) }
        try store.setLiveShare(LiveShare(from: fay, to: dan, startedAt: t0, until: t0.addingTimeInterval(900), paused: false))
        try store.setLiveShare(LiveShare(from: dan, to: fay, startedAt: t0, until: t0.addingTimeInterval(900), paused: false))
        #expect(try store.removePerson(fay))
        #expect(try store.liveShares(of: dan).isEmpty, "and a removed person's, both ways")
        #expect(try store.addPerson(person("fay"), settings: .newPerson) && store.liveShares(of: fay).isEmpty)
    }
}
