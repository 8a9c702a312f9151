import Foundation
import GeoCore
import LiveMap

/// The live store on Redis Cluster, for snapmap replicas that keep no state of their own. A person's keys share a
/// hash tag; a friendship is two asks, each written in its asker's slot, so no change spans slots and a
/// half-made friend request is never seen as a friendship. Writes wait for a replica (`WAIT 1`) before they
/// return, and every write is idempotent (fixes only when newer, sets, whole settings, Snaps in sets), so a
/// client that retries one whose answer it did not get changes nothing more; a viewer's friends are read in one
/// pipelined round per node. The hourly sets of Snaps expire by the server's clock (the time they have left is set,
/// never an instant of Redis's own clock); fixes never expire, as on SQLite: the service refuses one outside the
/// rule's window and the rule hides old ones.
public final class RedisLiveStore: LiveStore {
    let cluster: RedisCluster
    /// The server's clock, which the time left before a key expires is measured from.
    let clock: @Sendable () -> Date
    private let readiness: RedisReadiness

    public init(cluster: RedisCluster, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.cluster = cluster
        self.clock = clock
        readiness = RedisReadiness(cluster: cluster)
    }

    /// Ready when every slot's master answers within a quarter of a second (the answer kept a second).
    public func health() -> StoreHealth { readiness.health() }

    /// `body` with every cluster call given `hurriedBudget` at most (on this thread).
    public func hurried<T>(_ body: () throws -> T) rethrows -> T {
        try RedisCluster.hurry.withValue(Self.hurriedBudget) { try body() }
    }

    /// The budget of a hurried call: what the event hub's reads may take.
    public static let hurriedBudget = 0.5

    /// Connects to the cluster at `redis://host:port[,host:port…]`.
    public convenience init(url: String, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.init(cluster: try RedisCluster(seeds: RedisCluster.seeds(from: url)), clock: clock)
    }

    /// Runs writes that return once a replica has them; a cluster that cannot answer is `unavailable` (503).
    /// Each of `announcing` is published (`SPUBLISH`) in every slot the writes touch, on that slot's channel, in the
    /// same pipeline right after that slot's writes: a bus subscribed to the node hears it after they are applied.
    @discardableResult
    func write(_ commands: [[String]], announcing messages: [LiveBusMessage] = []) throws -> [RedisReply] {
        let slots = Set(commands.map { RedisCluster.slot(of: RedisCluster.routingKey($0)) }).sorted()
        let announcements = slots.flatMap { slot in messages.map { announcement($0, slot: slot) } }
        let replies: [RedisReply]
        do {
            replies = try cluster.run(commands + announcements, durable: true)
        } catch {
            throw LiveMapError.unavailable(message: "\(error)")
        }
        if let failure = replies.first(where: { if case .error = $0 { return true } else { return false } }) {
            throw LiveMapError.unavailable(message: "\(failure)")
        }
        return Array(replies.prefix(commands.count))
    }

    /// The command that publishes `message` on `slot`'s channel, from this client.
    func announcement(_ message: LiveBusMessage, slot: Int) -> [String] {
        ["SPUBLISH", RedisKeys.channels[slot], cluster.origin + "|" + message.text]
    }

    func read(_ commands: [[String]]) throws -> [RedisReply] {
        do {
            return try cluster.run(commands)
        } catch {
            throw LiveMapError.unavailable(message: "\(error)")
        }
    }

    /// Writes that a request waits for run here, so no server thread waits through a failover.
    static let writers = DispatchQueue(label: "snapmap-redis-writes", attributes: .concurrent)

    public func recordFix(_ fix: LocationFix, of id: PersonID, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        Self.writers.async { completion(Result { try self.recordFix(fix, of: id) }) }
    }

    public func addSnap(_ snap: PublicSnap, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        Self.writers.async { completion(Result { try self.addPostedSnap(snap) }) }
    }

    public func addPerson(_ person: Person, settings: SharingSettings) throws -> Bool {
        let fields = ["name", person.name, "color", person.color, "avatar", person.avatar ?? ""] + RedisKeys.values(settings)
        // The index entry is written whether or not the id was free: a retry after a lost answer completes it.
        return try write([["EVAL", RedisKeys.addPersonScript, "1", RedisKeys.person(person.id)] + fields,
                          ["ZADD", RedisKeys.people, "0", person.id.rawValue]])[0].integer == 1
    }

    public func person(_ id: PersonID) throws -> Person? {
        try settingsAndPerson(id)?.0
    }

    func settingsAndPerson(_ id: PersonID) throws -> (Person, SharingSettings)? {
        RedisKeys.person(id, try read([["HMGET", RedisKeys.person(id)] + RedisKeys.settingFields])[0].elements.map(Self.emptyAsNull))
    }

    static func emptyAsNull(_ reply: RedisReply) -> RedisReply {
        if case .string(let bytes) = reply, bytes.isEmpty { return .null }
        return reply
    }

    public func people(after: PersonID?, limit: Int) throws -> [Person] {
        let ids = try read([["ZRANGEBYLEX", RedisKeys.people, after.map { "(" + $0.rawValue } ?? "-", "+", "LIMIT", "0", String(limit)]])[0]
            .elements.compactMap { $0.text.map(PersonID.init(trusted:)) }
        let replies = try read(ids.map { ["HMGET", RedisKeys.person($0)] + RedisKeys.settingFields })
        return zip(ids, replies).compactMap { id, reply in RedisKeys.person(id, reply.elements.map(Self.emptyAsNull))?.0 }
    }

    public func addAsk(from: PersonID, to: PersonID, details: FriendDetails) throws {
        try write([["SADD", RedisKeys.askedBy(to), from.rawValue]], announcing: [.change(.pair(from, to))])
        try write([["HSET", RedisKeys.asks(from), to.rawValue, RedisKeys.encode(details)]], announcing: [.change(.pair(from, to))])
        // An ask that raced a block, or a deletion of either account, is taken back. The check follows the write: a
        // block writes both block sets before it removes the pair's asks, so either that removal came after this ask
        // or the sets are read here; a deletion marks the person before it reads whose asks name them, so either that
        // read found this ask or the mark (or the key's absence) is seen here.
        if try goneOrGoing([from, to]) || blocked(between: from, and: to) {
            try write([["HDEL", RedisKeys.asks(from), to.rawValue]])
            try write([["SREM", RedisKeys.askedBy(to), from.rawValue]], announcing: [.change(.pair(from, to))])
        }
    }

    public func removeAsks(between first: PersonID, and second: PersonID) throws {
        try write([["HDEL", RedisKeys.asks(first), second.rawValue], ["HDEL", RedisKeys.asks(second), first.rawValue],
                   ["SREM", RedisKeys.askedBy(first), second.rawValue], ["SREM", RedisKeys.askedBy(second), first.rawValue],
                   ["HDEL", RedisKeys.live(first), second.rawValue], ["HDEL", RedisKeys.live(second), first.rawValue],
                   ["SREM", RedisKeys.liveFrom(first), second.rawValue], ["SREM", RedisKeys.liveFrom(second), first.rawValue]],
                  announcing: [.change(.pair(first, second))])
    }

    public func asks(from: PersonID, to: PersonID) throws -> Bool {
        try read([["HEXISTS", RedisKeys.asks(from), to.rawValue]])[0].integer == 1
    }

    public func addBlock(by blocker: PersonID, on blocked: PersonID) throws {
        try write([["SADD", RedisKeys.blockedBy(blocked), blocker.rawValue]], announcing: [.change(.pair(blocker, blocked))])
        try write([["SADD", RedisKeys.blocks(blocker), blocked.rawValue]], announcing: [.change(.pair(blocker, blocked))])
        try removeAsks(between: blocker, and: blocked)
        // A block written inside either account's deletion is taken back, as an ask is (`goneOrGoing`).
        if try goneOrGoing([blocker, blocked]) { _ = try removeBlock(by: blocker, on: blocked) }
    }

    public func removeBlock(by blocker: PersonID, on blocked: PersonID) throws -> Bool {
        let removed = try write([["SREM", RedisKeys.blocks(blocker), blocked.rawValue]], announcing: [.change(.pair(blocker, blocked))])[0].integer == 1
        try write([["SREM", RedisKeys.blockedBy(blocked), blocker.rawValue]], announcing: [.change(.pair(blocker, blocked))])
        return removed
    }

    public func blocked(between first: PersonID, and second: PersonID) throws -> Bool {
        try read([["SISMEMBER", RedisKeys.blocks(first), second.rawValue], ["SISMEMBER", RedisKeys.blocks(second), first.rawValue]])
            .contains { $0.integer == 1 }
    }

    public func relations(of id: PersonID) throws -> [Relation] {
        let others = try related(to: id)
        let facts = try read(others.flatMap { other in
            [["HEXISTS", RedisKeys.asks(id), other.rawValue], ["HEXISTS", RedisKeys.asks(other), id.rawValue],
             ["HMGET", RedisKeys.person(other)] + RedisKeys.settingFields, ["HGET", RedisKeys.person(other), "birthday"]]
        })
        return others.enumerated().compactMap { index, other in
            let (mine, theirs) = (facts[4 * index].integer == 1, facts[4 * index + 1].integer == 1)
            guard mine || theirs, let person = RedisKeys.person(other, facts[4 * index + 2].elements.map(Self.emptyAsNull))?.0 else { return nil }
            return Relation(person: person, status: mine && theirs ? .friends : mine ? .requested : .incoming,
                            birthday: RedisKeys.birthday(facts[4 * index + 3].text))
        }
    }

    public func related(to id: PersonID) throws -> [PersonID] {
        let replies = try read([["HKEYS", RedisKeys.asks(id)], ["SMEMBERS", RedisKeys.askedBy(id)]])
        return Set(replies.flatMap { $0.elements.compactMap(\.text) }).map(PersonID.init(trusted:)).sorted()
    }

    public func birthday(of id: PersonID) throws -> Birthday? {
        RedisKeys.birthday(try read([["HGET", RedisKeys.person(id), "birthday"]])[0].text)
    }

    /// Sets the field only on an existing person (a script, so a removed person is not brought back).
    public func setBirthday(_ birthday: Birthday?, of id: PersonID) throws {
        try write([["EVAL", RedisKeys.setBirthdayScript, "1", RedisKeys.person(id), birthday?.description ?? ""]], announcing: [.change(.person(id))])
    }

    public func sharing(of id: PersonID) throws -> SharingSettings? {
        try settingsAndPerson(id)?.1
    }

    public func setSharing(_ settings: SharingSettings, of id: PersonID) throws {
        try write([["EVAL", RedisKeys.updatePersonScript, "1", RedisKeys.person(id)] + RedisKeys.values(settings)], announcing: [.change(.person(id))])
    }

    public func recordFix(_ fix: LocationFix, of id: PersonID) throws -> Bool {
        let answer = try write([["EVAL", RedisKeys.recordFixScript, "2", RedisKeys.fix(id), RedisKeys.person(id)] + RedisKeys.values(fix)],
                               announcing: [.fix(id, fix.asStored)])[0].integer ?? 0
        if answer == 2 { try keepFootstep(fix, of: id) }
        return answer >= 1
    }

    public func fix(of id: PersonID) throws -> LocationFix? {
        RedisKeys.fix(try read([["HMGET", RedisKeys.fix(id)] + RedisKeys.fixFields])[0].elements)
    }

    /// A token written inside its person's deletion is taken back (`goneOrGoing`), so whoever takes the id next cannot
    /// be signed in with it, and the minting is refused as for an unknown person.
    public func addToken(hash: String, for id: PersonID) throws {
        try write([["SET", RedisKeys.token(hash), id.rawValue], ["SADD", RedisKeys.tokens(id), hash]])
        guard try goneOrGoing([id]) else { return }
        try write([["DEL", RedisKeys.token(hash)], ["SREM", RedisKeys.tokens(id), hash]])
        throw LiveMapError.notFound(id: id.rawValue)
    }

    public func tokenOwner(hash: String) throws -> PersonID? {
        try read([["GET", RedisKeys.token(hash)]])[0].text.map(PersonID.init(trusted:))
    }

    public func revokeTokens(of id: PersonID) throws -> Int {
        let hashes = try read([["SMEMBERS", RedisKeys.tokens(id)]])[0].elements.compactMap(\.text)
        guard !hashes.isEmpty else { return 0 }
        try write(hashes.map { ["DEL", RedisKeys.token($0)] } + [["DEL", RedisKeys.tokens(id)]], announcing: [.change(.sessions(id))])
        return hashes.count
    }
}

extension RedisLiveStore: BulkLoadingStore {
    /// Commands sent in one pipeline when loading a world, and the seconds one pipeline may take.
    static let loadBatch = 20_000
    static let loadBudget = 60.0

    /// A whole world at once (large demo and benchmark stores), pipelined and without waiting for replicas: people
    /// with their settings, asks (with the index of who asked), fixes and token hashes.
    public func bulkLoad(people: [(Person, SharingSettings)] = [], asks: [(from: PersonID, to: PersonID, details: FriendDetails)] = [],
                         fixes: [(PersonID, LocationFix)] = [], tokenHashes: [(String, PersonID)] = []) throws {
        var commands: [[String]] = []
        for (person, settings) in people {
            commands.append(["HSET", RedisKeys.person(person.id), "name", person.name, "color", person.color, "avatar", person.avatar ?? ""]
                + RedisKeys.values(settings))
            commands.append(["ZADD", RedisKeys.people, "0", person.id.rawValue])
        }
        for ask in asks {
            commands.append(["HSET", RedisKeys.asks(ask.from), ask.to.rawValue, RedisKeys.encode(ask.details)])
            commands.append(["SADD", RedisKeys.askedBy(ask.to), ask.from.rawValue])
        }
        for (id, fix) in fixes {
            commands.append(["EVAL", RedisKeys.recordFixScript, "1", RedisKeys.fix(id)] + RedisKeys.values(fix))
        }
        for (hash, id) in tokenHashes {
            commands.append(["SET", RedisKeys.token(hash), id.rawValue])
            commands.append(["SADD", RedisKeys.tokens(id), hash])
        }
        for start in stride(from: 0, to: commands.count, by: Self.loadBatch) {
            _ = try cluster.run(Array(commands[start..<min(commands.count, start + Self.loadBatch)]), within: Self.loadBudget)
        }
    }
}
