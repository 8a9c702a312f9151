import Foundation
import GeoCore

/// The part of a layout that depends on the friends alone, not on the viewport: their priority order, their places
/// in Web Mercator metres and their groups at every zoom (supercluster's index). Made once for a set of friends.
final class GroupedSubjects: Sendable {
    let subjects: [PinSubject]
    let selected: String?
    let distance: Double
    /// The friends in priority order, and their places.
    let ordered: [PinSubject]
    let metres: [MercatorPoint]
    /// The selected friend's place in `ordered` (first, when among the friends); everyone else is grouped.
    let selectedIndex: Int?
    let groupable: [Int]
    let hierarchy: GroupHierarchy
    /// With a friend selected, everyone's place in the order without a selection (which names a group).
    let unselectedRank: [String: Int]

    init(subjects: [PinSubject], selected: String?, distance: Double) {
        (self.subjects, self.selected, self.distance) = (subjects, selected, distance)
        ordered = PinPriority.sorted(subjects, selected: selected)
        let metres = ordered.map { WebMercator.projectUnchecked(lat: $0.coordinate.lat, lon: $0.coordinate.lon) }
        self.metres = metres
        let ordered = ordered
        let selectedIndex = selected == nil ? nil : ordered.indices.first { ordered[$0].id == selected }
        self.selectedIndex = selectedIndex
        let groupable = ordered.indices.filter { $0 != selectedIndex }
        self.groupable = groupable
        hierarchy = GroupHierarchy(x: groupable.map { metres[$0].x }, y: groupable.map { metres[$0].y }, distance: distance, downTo: 0)
        unselectedRank = selected == nil ? [:]
            : Dictionary(PinPriority.sorted(subjects, selected: nil).enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Groupings kept for the friend sets laid out last, so that panning and zooming over the same friends groups
/// them once (as supercluster builds its index once, not per query). Keyed by the friends themselves, every field,
/// with the selection and the grouping distance, so a kept grouping is exactly the one that would be made again.
/// Bounded by the friends it holds (about 300 bytes each, reckoned from its arrays); `removeAll` forgets everything, which
/// the server does when an account is deleted, so none of its places stay behind.
public final class GroupingCache: @unchecked Sendable {
    public let maxSubjects: Int
    private let lock = NSLock()
    /// Least recently used first.
    private var entries: [(hash: Int, value: GroupedSubjects)] = []
    private var held = 0

    public init(maxSubjects: Int) {
        self.maxSubjects = maxSubjects
    }

    /// The grouping of `subjects` with `selected` standing alone: a kept one when the same, else made (and kept
    /// when it fits).
    func grouped(_ subjects: [PinSubject], selected: String?, distance: Double) -> GroupedSubjects {
        // The hash reads the numbers only (strings cost more to hash); a kept grouping is then compared whole.
        var hasher = Hasher()
        hasher.combine(subjects.count)
        for subject in subjects {
            hasher.combine(subject.coordinate.lat)
            hasher.combine(subject.coordinate.lon)
            hasher.combine(subject.lastSeen)
            hasher.combine(subject.snapstreak)
        }
        hasher.combine(selected)
        hasher.combine(distance)
        let hash = hasher.finalize()
        let candidates = lock.withLock { entries.filter { $0.hash == hash }.map(\.value) }
        if let kept = candidates.first(where: { $0.selected == selected && $0.distance == distance && $0.subjects == subjects }) {
            lock.withLock {
                if let at = entries.firstIndex(where: { $0.value === kept }) { entries.append(entries.remove(at: at)) }
            }
            return kept
        }
        let made = GroupedSubjects(subjects: subjects, selected: selected, distance: distance)
        guard subjects.count <= maxSubjects else { return made }
        lock.withLock {
            entries.append((hash, made))
            held += subjects.count
            while held > maxSubjects {
                held -= entries.removeFirst().value.subjects.count
            }
        }
        return made
    }

    /// Forgets every grouping.
    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            held = 0
        }
    }

    /// The friends held now.
    public var subjectCount: Int { lock.withLock { held } }
}
