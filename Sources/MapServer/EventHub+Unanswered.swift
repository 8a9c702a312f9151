import Dispatch
import LiveMap

/// What the hub does when the store cannot answer (a Redis master lost, a failover under way): a store error is
/// never an event. Every read is hurried (`LiveStore.hurried`: half a second at most on Redis), so no shard's
/// failure holds the hub's queue long; a read that fails leaves the stream as it was told, and is tried again every
/// `retryDelay`. A viewer whose reads the store has not answered for `unansweredBound` seconds has their streams
/// ended (the client reconnects and gets a fresh `ready` once the store answers). Token checks run off the queue.
extension EventHub {
    /// Seconds between tries of reads the store did not answer.
    static let retryDelay = 0.25
    /// The longest a stream is left as it was told while its viewer's reads fail; then it ends.
    public static let unansweredBound = 5.0

    /// A viewer's reads still to try again, since when they fail (monotonic nanoseconds).
    struct Unanswered {
        let since: UInt64
        var people: Set<PersonID> = []
        /// Everyone the viewer asked is to be read again (a sweep's or a friendship's read failed).
        var whole = false
    }

    /// A store read for the hub: hurried, its error kept for the caller.
    func read<T>(_ body: () throws -> T) -> Result<T, any Error> {
        Result { try live.store.hurried(body) }
    }

    /// Notes a read about `viewer` (of `person`, or of everyone they asked) that the store did not answer.
    func unanswered(_ viewer: PersonID, person: PersonID? = nil) {
        var entry = failing[viewer] ?? Unanswered(since: DispatchTime.now().uptimeNanoseconds)
        if let person { entry.people.insert(person) } else { entry.whole = true }
        failing[viewer] = entry
        guard !retryArmed else { return }
        retryArmed = true
        queue.asyncAfter(deadline: .now() + Self.retryDelay) { self.retryUnanswered() }
    }

    /// Tries the failed reads again; ends the streams of viewers whose reads failed past `unansweredBound`.
    func retryUnanswered() {
        retryArmed = false
        let now = DispatchTime.now().uptimeNanoseconds
        for (viewer, entry) in failing.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard byViewer[viewer] != nil else {
                failing[viewer] = nil
                continue
            }
            if Double(now &- entry.since) / 1e9 >= Self.unansweredBound {
                failing[viewer] = nil
                for id in byViewer[viewer] ?? [] { end(id) }
                continue
            }
            failing[viewer] = Unanswered(since: entry.since)
            if entry.whole {
                reread(viewer, now: clock())
            } else {
                for person in entry.people.sorted(by: { $0.rawValue < $1.rawValue }) { reevaluate(viewer: viewer, person: person, now: clock()) }
            }
            if let left = failing[viewer], left.people.isEmpty, !left.whole { failing[viewer] = nil }
        }
        rearm()
    }

    /// Checks the tokens of streams `ids` off the hub's queue, one after another (a lost shard's wait never holds
    /// other streams' events), and ends on the queue each whose token no longer signs its viewer in. A check the
    /// store cannot answer is tried again every `recheckDelay`; one unanswered for `unansweredBound` ends its stream
    /// too, as a read does. (It used to end after eight quick tries, about a second: a sweep that fell in a failover
    /// of the token's shard ended streams the failover should have left open. No revocation of a token can be
    /// acknowledged while its shard is down.)
    func checkTokens(_ ids: [Int], failingSince: UInt64? = nil) {
        let checks = ids.compactMap { id in subscribers[id].map { (id, $0.tokenHash, $0.viewer) } }
        guard !checks.isEmpty else { return }
        let live = self.live
        DispatchQueue.global().async {
            let answers = checks.map { id, hash, viewer in (id, Result { try live.signsIn(tokenHash: hash, viewer) }) }
            self.queue.async { self.settleTokens(answers, failingSince: failingSince) }
        }
    }

    private func settleTokens(_ answers: [(Int, Result<Bool, any Error>)], failingSince: UInt64?) {
        let now = DispatchTime.now().uptimeNanoseconds
        let since = failingSince ?? now
        var unanswered: [Int] = []
        for (id, answer) in answers {
            switch answer {
            case .success(true): continue
            case .failure where Double(now &- since) / 1e9 < Self.unansweredBound: unanswered.append(id)
            default: end(id)
            }
        }
        guard !unanswered.isEmpty else { return }
        let again = unanswered
        queue.asyncAfter(deadline: .now() + Self.recheckDelay) { self.checkTokens(again, failingSince: since) }
    }
}
