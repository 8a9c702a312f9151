import Foundation
import LiveMap

/// Live Location shares on Redis Cluster: the fact in the sharer's slot (a hash by friend), an index of sharers in
/// the friend's slot, written index first (as asks are), so a share is never found without its index. Each change is
/// announced with its last write, so other replicas' views re-read the pair.
extension RedisLiveStore {
    public func setLiveShare(_ share: LiveShare) throws {
        try write([["SADD", RedisKeys.liveFrom(share.to), share.from.rawValue]])
        try write([["HSET", RedisKeys.live(share.from), share.to.rawValue, RedisKeys.encode(share)]], announcing: [.change(.pair(share.from, share.to))])
        // A share that raced a block, an unfriending or a deletion is taken back. The check follows the write: the
        // sharer's ask leaves in the same round as the share (one node, in order), a block's sets are written before
        // that round, and a deletion marks the person before it reads their shares (`goneOrGoing`).
        let facts = try read([["HEXISTS", RedisKeys.asks(share.from), share.to.rawValue], ["HEXISTS", RedisKeys.asks(share.to), share.from.rawValue]])
        if try facts.contains(where: { $0.integer != 1 }) || blocked(between: share.from, and: share.to) || goneOrGoing([share.from, share.to]) {
            _ = try removeLiveShare(from: share.from, to: share.to)
        }
    }

    public func removeLiveShare(from: PersonID, to: PersonID) throws -> Bool {
        let removed = try write([["HDEL", RedisKeys.live(from), to.rawValue]])[0].integer == 1
        try write([["SREM", RedisKeys.liveFrom(to), from.rawValue]], announcing: [.change(.pair(from, to))])
        return removed
    }

    public func liveShares(of id: PersonID) throws -> [LiveShare] {
        let replies = try read([["HGETALL", RedisKeys.live(id)], ["SMEMBERS", RedisKeys.liveFrom(id)]])
        let own = replies[0].elements
        var shares: [LiveShare] = stride(from: 0, to: own.count - 1, by: 2).compactMap { index in
            own[index].text.flatMap { RedisKeys.liveShare(own[index + 1].text, from: id, to: PersonID(trusted: $0)) }
        }
        let sharers = replies[1].elements.compactMap(\.text).map(PersonID.init(trusted:))
        let theirs = try read(sharers.map { ["HGET", RedisKeys.live($0), id.rawValue] })
        shares += zip(sharers, theirs).compactMap { sharer, reply in RedisKeys.liveShare(reply.text, from: sharer, to: id) }
        return shares.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }
}
