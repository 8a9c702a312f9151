import Foundation
import GeoCore

/// How a person stands with someone they know: friends (both asked), or a request one way.
public enum RelationStatus: String, Sendable, Codable {
    case friends
    /// I asked; they have not asked back.
    case requested
    /// They asked me; I have not answered.
    case incoming
}

/// One friendship or pending request, as a person's friend list shows it (never a location).
public struct Relation: Hashable, Sendable {
    public let person: Person
    public let status: RelationStatus
    /// The birthday the person set, given only when the two are friends.
    public let birthday: Birthday?

    public init(person: Person, status: RelationStatus, birthday: Birthday? = nil) {
        self.person = person
        self.status = status
        self.birthday = status == .friends ? birthday : nil
    }
}

/// What one side of a friendship records about it: the Snapstreak and whether the other is a best friend.
public struct FriendDetails: Hashable, Sendable {
    public static let snapstreakRange = 0...100_000
    public let snapstreak: Int
    public let bestFriend: Bool

    public init(snapstreak: Int = 0, bestFriend: Bool = false) {
        self.snapstreak = snapstreak
        self.bestFriend = bestFriend
    }
}

/// A person a viewer might see, with every fact the visibility rule needs and the viewer's details of the
/// friendship. Stores return candidates; only the rule decides.
public struct Candidate: Hashable, Sendable {
    public let person: Person
    public let facts: VisibilityFacts
    public let details: FriendDetails
    /// The birthday the person set (Actionmoji): shown only as the pose of a friend the viewer sees.
    public let birthday: Birthday?

    public init(person: Person, facts: VisibilityFacts, details: FriendDetails, birthday: Birthday? = nil) {
        self.person = person
        self.facts = facts
        self.details = details
        self.birthday = birthday
    }
}

/// How another person stands with a caller, as one read sees it: who asks whom, and whether the caller blocks
/// them. A person who blocks the caller has no standing (the store answers nil, as for an unknown id).
public struct Standing: Hashable, Sendable {
    public let meAsk: Bool
    public let theyAsk: Bool
    public let meBlocks: Bool

    public init(meAsk: Bool, theyAsk: Bool, meBlocks: Bool) {
        self.meAsk = meAsk
        self.theyAsk = theyAsk
        self.meBlocks = meBlocks
    }
}

/// Where the live state lives: people, asks (a friendship is two asks), blocks, sharing settings, the latest fix
/// per person and sign-in token hashes. Implementations are durable (a returned write survives a crash of the
/// process), never expose a half-applied change, and pass `LiveStoreConformance`. They validate nothing: the
/// service above them does.
public protocol LiveStore: AnyObject, Sendable {
    /// Adds a person with their settings; false (and no change) when the id exists.
    func addPerson(_ person: Person, settings: SharingSettings) throws -> Bool
    func person(_ id: PersonID) throws -> Person?
    /// People in id order after `after`, at most `limit`.
    func people(after: PersonID?, limit: Int) throws -> [Person]

    /// Records that `from` asks `to` to be friends (or accepts), with `from`'s details; idempotent. Not kept while a
    /// block parts them or either is gone (an ask that raced the block or the deletion).
    func addAsk(from: PersonID, to: PersonID, details: FriendDetails) throws
    /// Removes the asks both ways.
    func removeAsks(between first: PersonID, and second: PersonID) throws
    /// Whether `from` asks `to`.
    func asks(from: PersonID, to: PersonID) throws -> Bool
    /// `blocker` blocks `blocked`, and the asks both ways go.
    func addBlock(by blocker: PersonID, on blocked: PersonID) throws
    /// Lifts a block; false when there was none.
    func removeBlock(by blocker: PersonID, on blocked: PersonID) throws -> Bool
    /// Whether either blocks the other.
    func blocked(between first: PersonID, and second: PersonID) throws -> Bool
    /// How `other` stands with `me`, in one read; nil when `other` does not exist or blocks `me` (the same answer,
    /// after the same work).
    func standing(of other: PersonID, for me: PersonID) throws -> Standing?
    /// The friendships and pending requests of a person, in id order.
    func relations(of id: PersonID) throws -> [Relation]
    /// Everyone with an ask either way: whose view a change of `id` can affect.
    func related(to id: PersonID) throws -> [PersonID]

    func sharing(of id: PersonID) throws -> SharingSettings?
    /// The birthday `id` set (nil: none, or no such person).
    func birthday(of id: PersonID) throws -> Birthday?
    /// Sets (nil: clears) the birthday of `id`, telling the bus that the person changed.
    func setBirthday(_ birthday: Birthday?, of id: PersonID) throws
    func setSharing(_ settings: SharingSettings, of id: PersonID) throws
    /// Keeps `fix` when it is newer than the stored one; returns whether it was kept. A kept fix of a person who keeps
    /// Footsteps goes into them in the same write (`Footsteps.next`, with its bounds).
    func recordFix(_ fix: LocationFix, of id: PersonID) throws -> Bool
    func fix(of id: PersonID) throws -> LocationFix?
    /// `recordFix` without waiting: `completion` gets whether the fix was kept, once it is durable.
    func recordFix(_ fix: LocationFix, of id: PersonID, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void)

    /// Starts, replaces, pauses or resumes the Live Location share `share.from` → `share.to` (one per direction).
    /// Removing the asks between two people, a block between them, or either person removes their shares too; a share
    /// written while the two are not mutual friends, or a block parts them, is not kept (a write that raced them).
    func setLiveShare(_ share: LiveShare) throws
    /// Stops the share `from` → `to`; false when there was none.
    func removeLiveShare(from: PersonID, to: PersonID) throws -> Bool
    /// A person's shares both ways (theirs and those to them), ordered by sharer, then friend.
    func liveShares(of id: PersonID) throws -> [LiveShare]

    /// Whether a person keeps Footsteps (false for an unknown id), and turns them on or off (off keeps the history).
    func footstepsOn(_ id: PersonID) throws -> Bool
    func setFootsteps(on: Bool, of id: PersonID) throws
    /// A person's Footsteps, oldest first.
    func footsteps(of id: PersonID) throws -> [Footstep]
    /// The places of a person's Footsteps inside `box` (edges included), in no particular order, found through an index
    /// of places (not by reading them all): what a frame of that part of the map tints.
    func footsteps(of id: PersonID, in box: GeoBoundingBox) throws -> [Coordinate]
    /// Forgets every place of a person's Footsteps; returns how many there were.
    func clearFootsteps(of id: PersonID) throws -> Int

    func addToken(hash: String, for id: PersonID) throws
    func tokenOwner(hash: String) throws -> PersonID?
    /// Removes every token of a person; returns how many.
    func revokeTokens(of id: PersonID) throws -> Int
    /// Removes one token; returns whose it was (nil when there was none).
    func removeToken(hash: String) throws -> PersonID?
    /// Removes a person and every fact that names them (settings, fix, asks and blocks both ways, tokens, Snaps,
    /// live shares both ways, Footsteps),
    /// leaving no byte that depends on them; false when there was no such person.
    func removePerson(_ id: PersonID) throws -> Bool
    /// Finishes the removals that began and failed part way (a store whose removal is not one transaction); returns
    /// whose it finished. Until then each such person answers as nobody.
    func finishInterruptedRemovals() throws -> [PersonID]

    /// Stores public Snaps (all or none).
    func addSnaps(_ snaps: [PublicSnap]) throws
    /// A person's posted Snap without waiting, kept only while they are a person: a removal written first (their
    /// request signed in before it) leaves none of theirs. `completion` says whether it was kept, once durable.
    func addSnap(_ snap: PublicSnap, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void)
    /// The Snaps taken at or after `since`.
    func snaps(since: Date) throws -> [PublicSnap]
    /// Drops the Snaps taken before `before`; returns how many.
    func pruneSnaps(before: Date) throws -> Int

    /// Everyone `viewer` asked, with the facts of each (their live share with the viewer included): the rule picks
    /// the visible ones.
    func candidates(of viewer: PersonID) throws -> [Candidate]
    /// One person as each viewer who asked them sees them (a candidate per viewer, `facts.viewer` naming whose): what
    /// a change of that person's fix or settings is checked against, in one read.
    func viewers(of person: PersonID) throws -> [Candidate]
    /// The facts about one person for one viewer; nil when the person does not exist.
    func candidate(viewer: PersonID, person: PersonID) throws -> Candidate?

    /// Whether the store can serve now (a cheap check: a server's readiness probe asks it).
    func health() -> StoreHealth
    /// Runs `body`, whose store calls may then wait a short while only (a networked store's calls fail sooner).
    func hurried<T>(_ body: () throws -> T) rethrows -> T
}

extension LiveStore {
    /// Stores whose calls never wait on a network run `body` as it is.
    public func hurried<T>(_ body: () throws -> T) rethrows -> T { try body() }

    /// Stores without an asynchronous path write synchronously and complete at once.
    public func addSnap(_ snap: PublicSnap, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        completion(Result {
            guard try person(snap.person) != nil else { return false }
            try addSnaps([snap])
            return true
        })
    }

    /// Stores without an asynchronous path record synchronously and complete at once.
    public func recordFix(_ fix: LocationFix, of id: PersonID, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        completion(Result { try recordFix(fix, of: id) })
    }
}
