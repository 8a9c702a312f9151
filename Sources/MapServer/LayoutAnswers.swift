import Foundation
import LiveMap
import MapEngine

/// Each viewer's layout answers (bytes and ETag), kept in a byte budget so that an unchanged map costs a hash
/// lookup. An answer is keyed by the viewer, the request's parameters and the minute its labels are drawn for, and
/// reused only while the viewer's stamp (`LiveView.answerStamp`, moved by every change that reaches them, from this
/// process or another) is the one read before it was made, and before the rule's next instant for their friends
/// (`VisibilityRule.nextChange`). Without a current view there is no stamp and nothing is kept or reused.
final class LayoutAnswers: Sendable {
    struct Key: Hashable, Sendable {
        let viewer: PersonID
        let query: [String]
        let minute: Int64
    }

    struct Answer: Sendable {
        let body: [UInt8]
        let tag: String
        let stamp: UInt64
        let until: Date?
    }

    /// Bytes of layout answers kept in memory.
    static let budget = 256 * 1024 * 1024
    private let answers = ByteBudgetCache<Key, Answer>(budget: LayoutAnswers.budget)

    static func key(_ viewer: PersonID, query: [String: String], at now: Date) -> Key {
        Key(viewer: viewer, query: query.map { "\($0.key)=\($0.value)" }.sorted(), minute: Int64((now.timeIntervalSince1970 / LiveView.keptAnswerLifetime).rounded(.down)))
    }

    /// The answer kept for `key`, if it is still the one the viewer would get at `now` with stamp `stamp`.
    func answer(_ key: Key, stamp: UInt64?, at now: Date) -> Answer? {
        guard let stamp, let answer = answers.value(key), answer.stamp == stamp else { return nil }
        if let until = answer.until, now >= until { return nil }
        return answer
    }

    /// Keeps `answer` (made from facts read after its stamp) under `key`, unless the viewer's stamp has moved by the
    /// time it is kept (`stampNow`, read after keeping it: so an answer made before a deletion and kept after the
    /// deletion emptied the answers goes too).
    func keep(_ answer: Answer, for key: Key, stampNow: () -> UInt64?) {
        answers.store(answer, for: key, cost: answer.body.count + answer.tag.utf8.count + key.query.reduce(64) { $0 + $1.utf8.count })
        if stampNow() != answer.stamp { answers.removeValue(for: key) }
    }

    /// Forgets every answer (a deleted account leaves none of its bytes behind).
    func removeAll() { answers.removeAll() }

    /// The bytes held now.
    var bytes: Int { answers.bytes }
}
