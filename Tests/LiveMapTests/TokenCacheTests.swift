import Foundation
@testable import LiveMap
import RedisStore
import Testing

/// Tokens answered from the view's memory (`TokenCache`) stop signing in as soon as a sign-out, a revocation or a
/// deletion is applied to the view: made through it at once, made by another process once its message is heard
/// (the SQLite change log, Redis Cluster's bus), and never later than `LiveView.stalenessBound` when none is heard.
@Suite("Token cache")
struct TokenCacheTests {
    typealias ManualBus = LiveViewTests.ManualBus

    @Test func aTokenReadBeforeASessionChangeIsNotKept() {
        let cache = TokenCache(capacity: 4)
        let ann = PersonID(trusted: "ann")
        let stamp = cache.stamp
        // A revocation applied while the store was being read: what that read answered may already be revoked.
        cache.forget(ann)
        cache.keep("a1", for: ann, readAt: stamp)
        #expect(cache.owner(of: "a1") == nil)
        cache.keep("a1", for: ann, readAt: cache.stamp)
        cache.keep("a2", for: ann, readAt: cache.stamp)
        #expect(cache.owner(of: "a1") == ann && cache.owner(of: "a2") == ann)
        cache.forget(hash: "a1")
        #expect(cache.owner(of: "a1") == nil && cache.owner(of: "a2") == ann, "one phone signed out, the other kept")
        for index in 0..<10 { cache.keep("b\(index)", for: PersonID(trusted: "p\(index)"), readAt: cache.stamp) }
        #expect(cache.count <= cache.capacity && cache.owner(of: "b9") == PersonID(trusted: "p9"), "bounded: \(cache.count)")
    }

    @Test func ownSignOutsRevocationsAndDeletionsApplyAtOnce() throws {
        let view = LiveView(store: try SQLiteLiveStore(path: SQLiteStoreTests.temporaryPath(), synchronous: false))
        try view.load()
        let live = LiveMapService(store: view)
        let ann = try live.addPerson(id: "ann", name: "Ann").id
        let bob = try live.addPerson(id: "bob", name: "Bob").id
        let (phone, tablet, bobs) = (try live.mintToken(for: "ann"), try live.mintToken(for: "ann"), try live.mintToken(for: "bob"))
        #expect(try [phone, tablet, bobs].map(live.authenticate) == [ann, ann, bob])
        #expect(view.tokens.count == 3, "kept after the first read")
        try live.signOut(tokenHash: LiveMapService.tokenHash(phone))
        #expect(try [phone, tablet, bobs].map(live.authenticate) == [nil, ann, bob])
        try live.revokeTokens(of: "ann")
        #expect(try [phone, tablet, bobs].map(live.authenticate) == [nil, nil, bob])
        try live.removePerson("bob")
        #expect(try live.authenticate(bobs) == nil)
    }

    /// Another process revokes: the view answers from memory until the bus brings the revocation, then never again;
    /// with no message, past the staleness bound, the store answers.
    @Test func aRevocationElsewhereEndsTheTokenWhenHeardOrAtTheBound() throws {
        let (path, elsewhere, ann, bob) = try LiveViewTests.annAndBob()
        let clock = LiveViewTests.ManualClock()
        let bus = ManualBus()
        let view = LiveView(store: try SQLiteLiveStore(path: path, synchronous: false), monotonic: { clock.now })
        let live = LiveMapService(store: view)
        bus.caughtUp(at: clock.now)
        live.attach(bus)
        let (phone, tablet, bobs, bobsTablet) = (try elsewhere.mintToken(for: "ann"), try elsewhere.mintToken(for: "ann"),
                                                 try elsewhere.mintToken(for: "bob"), try elsewhere.mintToken(for: "bob"))
        #expect(try [phone, tablet, bobs, bobsTablet].map(live.authenticate) == [ann, ann, bob, bob])
        try elsewhere.revokeTokens(of: "ann")
        #expect(try live.authenticate(phone) == ann, "answered from memory until the revocation is heard")
        bus.deliver(.change(.sessions(ann)))
        #expect(try [phone, tablet, bobs, bobsTablet].map(live.authenticate) == [nil, nil, bob, bob])

        try elsewhere.signOut(tokenHash: LiveMapService.tokenHash(bobs))
        bus.deliver(.change(.sessions(bob)))
        #expect(try [bobs, bobsTablet].map(live.authenticate) == [nil, bob])
        try elsewhere.removePerson("bob")
        bus.deliver(.change(.removed(bob)))
        #expect(try live.authenticate(bobsTablet) == nil)

        // Nothing heard: the store answers once the bus has not caught up within the bound.
        let late = try elsewhere.mintToken(for: "ann")
        #expect(try live.authenticate(late) == ann)
        try elsewhere.revokeTokens(of: "ann")
        clock.advance(seconds: LiveView.stalenessBound + 0.001)
        #expect(try live.authenticate(late) == nil)
    }

    /// Two processes on one SQLite file: the other's sign-out, revocation and deletion reach this one's view through
    /// the change log.
    @Test func theChangeLogCarriesRevocationsToTheView() throws {
        let (path, elsewhere, ann, bob) = try LiveViewTests.annAndBob()
        let viewStore = try SQLiteLiveStore(path: path, synchronous: false)
        let view = LiveView(store: viewStore)
        let live = LiveMapService(store: view)
        let feed = viewStore.makeChangeFeed()
        live.attach(feed)
        let tokens = try ["ann", "ann", "bob"].map { try elsewhere.mintToken(for: $0) }
        try LiveViewTests.waitForFeed(feed)
        #expect(try tokens.map(live.authenticate) == [ann, ann, bob] && view.tokens.count == 3)
        try elsewhere.signOut(tokenHash: LiveMapService.tokenHash(tokens[0]))
        try LiveViewTests.waitForFeed(feed)
        #expect(try tokens.map(live.authenticate) == [nil, ann, bob])
        try elsewhere.revokeTokens(of: "ann")
        try elsewhere.removePerson("bob")
        try LiveViewTests.waitForFeed(feed)
        #expect(view.isCurrent, "the view answers, not the store")
        #expect(try tokens.map(live.authenticate) == [nil, nil, nil])
    }
}

extension RedisStoreTests {
    /// Two replicas on Redis Cluster: what one signs out, revokes or deletes stops signing in on the other as soon as
    /// the other has heard it, though it answered that token from memory before.
    @Test func aTokenRevokedThroughOneReplicaStopsOnTheOther() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let (first, second) = (try ViewedReplica(url: local.url), try ViewedReplica(url: local.url))
        defer { for replica in [first, second] { replica.bus.close() } }
        let ann = try first.live.addPerson(id: "ann", name: "Ann").id
        let bob = try first.live.addPerson(id: "bob", name: "Bob").id
        let tokens = try ["ann", "ann", "bob"].map { try first.live.mintToken(for: $0) }
        try second.waitUntilHeard()
        #expect(try tokens.map(second.live.authenticate) == [ann, ann, bob] && second.view.tokens.count == 3)
        try first.live.signOut(tokenHash: LiveMapService.tokenHash(tokens[0]))
        try second.waitUntilHeard()
        #expect(try tokens.map(second.live.authenticate) == [nil, ann, bob])
        try first.live.revokeTokens(of: "ann")
        try first.live.removePerson("bob")
        try second.waitUntilHeard()
        #expect(try tokens.map(second.live.authenticate) == [nil, nil, nil])
    }
}
