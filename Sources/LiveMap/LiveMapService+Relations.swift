/// Friendships and blocks. Every answer about another person starts from one read of how they stand with the
/// caller (`LiveStore.standing`), in which a person who blocks the caller and an id that does not exist are the
/// same nil: both answer `notFound` after the same work, so a block cannot be told from an unknown id.
extension LiveMapService {
    /// `me` asks `other` to be friends, or accepts their request: friends when both have asked.
    @discardableResult
    public func requestFriend(_ me: PersonID, _ other: String, details: FriendDetails = FriendDetails()) throws -> RelationStatus {
        let (otherID, standing) = try resolve(me, other, verb: "befriend")
        guard !standing.meBlocks else { throw LiveMapError.conflict(message: "you block \"\(other)\": unblock them first") }
        try store.addAsk(from: me, to: otherID, details: details)
        notify(.pair(me, otherID))
        return standing.theyAsk ? .friends : .requested
    }

    /// Ends a friendship or withdraws or declines a request.
    public func removeFriend(_ me: PersonID, _ other: String) throws {
        let (otherID, standing) = try resolve(me, other, verb: "unfriend")
        guard standing.meAsk || standing.theyAsk else { throw LiveMapError.notFound(id: other) }
        try store.removeAsks(between: me, and: otherID)
        notify(.pair(me, otherID))
    }

    /// Blocks anyone who exists for `me` (not someone who blocks `me`: to `me` they do not exist): any friendship or
    /// request ends and both are hidden from each other. Blocking again changes nothing.
    public func block(_ me: PersonID, _ other: String) throws {
        let (otherID, _) = try resolve(me, other, verb: "block")
        try store.addBlock(by: me, on: otherID)
        notify(.pair(me, otherID))
    }

    /// Lifts a block `me` placed (the friendship does not come back by itself). While the other blocks `me`, they
    /// do not exist for `me`, and `me`'s own block stays in force.
    public func unblock(_ me: PersonID, _ other: String) throws {
        let (otherID, standing) = try resolve(me, other, verb: "unblock")
        guard standing.meBlocks, try store.removeBlock(by: me, on: otherID) else { throw LiveMapError.notFound(id: other) }
        notify(.pair(me, otherID))
    }

    public func relations(of me: PersonID) throws -> [Relation] {
        try store.relations(of: me)
    }

    /// The other person's id and how they stand with `me`; `notFound` when they do not exist or block `me`.
    private func resolve(_ me: PersonID, _ other: String, verb: String) throws -> (PersonID, Standing) {
        let otherID = try PersonID(other, in: .parameter)
        guard otherID != me else { throw LiveMapError.invalid(field: "id", message: "you cannot \(verb) yourself", in: .parameter) }
        guard let standing = try store.standing(of: otherID, for: me) else { throw LiveMapError.notFound(id: other) }
        return (otherID, standing)
    }
}
