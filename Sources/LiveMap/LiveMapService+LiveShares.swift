import Foundation

/// Live Location: a person shares with one friend for a set time, pauses, resumes and stops. Only the sharer
/// changes a share; both see it listed. Whoever the caller cannot know (an unknown id, someone who blocks them)
/// is `notFound`, after the same one read of their standing.
extension LiveMapService {
    /// `me` shares Live Location with friend `other` for `duration` ("15m", "1h", "8h") from `now` to the millisecond
    /// (as the stores keep it), replacing a share already running to them; someone who is not a friend is a conflict.
    @discardableResult
    public func startLiveShare(_ me: PersonID, with other: String, duration: String, now: Date) throws -> LiveShare {
        let seconds = try LiveShare.seconds(duration)
        let otherID = try friendID(me, other)
        let start = LocationFix.date(LocationFix.milliseconds(now))
        let share = LiveShare(from: me, to: otherID, startedAt: start, until: start.addingTimeInterval(seconds), paused: false)
        try store.setLiveShare(share)
        notify(.pair(me, otherID))
        return share
    }

    /// Pauses or resumes `me`'s share with `other` (its end stays where it was); one that has ended, or none, is
    /// `noLiveShare`.
    @discardableResult
    public func pauseLiveShare(_ me: PersonID, with other: String, paused: Bool, now: Date) throws -> LiveShare {
        let otherID = try PersonID(other, in: .parameter)
        guard let share = try store.liveShares(of: me).first(where: { $0.from == me && $0.to == otherID && now < $0.until }) else {
            throw LiveMapError.noLiveShare(id: other)
        }
        let changed = share.with(paused: paused)
        try store.setLiveShare(changed)
        notify(.pair(me, otherID))
        return changed
    }

    /// Stops `me`'s share with `other`; none is `noLiveShare`.
    public func stopLiveShare(_ me: PersonID, with other: String) throws {
        let otherID = try PersonID(other, in: .parameter)
        guard try store.removeLiveShare(from: me, to: otherID) else { throw LiveMapError.noLiveShare(id: other) }
        notify(.pair(me, otherID))
    }

    /// `me`'s shares both ways that have not ended at `now`, ordered by sharer, then friend.
    public func liveShares(of me: PersonID, at now: Date) throws -> [LiveShare] {
        try store.liveShares(of: me).filter { now < $0.until }
    }

    /// The id of a mutual friend of `me`; `notFound` for an unknown id or one who blocks `me`, a conflict otherwise.
    private func friendID(_ me: PersonID, _ other: String) throws -> PersonID {
        let otherID = try PersonID(other, field: "friend")
        guard otherID != me else { throw LiveMapError.invalid(field: "friend", message: "you cannot share live with yourself") }
        guard let standing = try store.standing(of: otherID, for: me) else { throw LiveMapError.notFound(id: other) }
        guard standing.meAsk, standing.theyAsk else { throw LiveMapError.conflict(message: "\"\(other)\" is not your friend: Live Location is shared with friends only") }
        return otherID
    }
}
