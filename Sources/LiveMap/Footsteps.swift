import Foundation
import GeoCore

/// One place of a person's Footsteps: where, and the first and last time they were seen there.
public struct Footstep: Hashable, Sendable {
    public let coordinate: Coordinate
    public let firstVisit: Date
    public let lastVisit: Date

    public init(coordinate: Coordinate, firstVisit: Date, lastVisit: Date) {
        self.coordinate = coordinate
        self.firstVisit = firstVisit
        self.lastVisit = lastVisit
    }
}

/// Footsteps: a private history of the places a person has been, kept only while they turn it on, shown only to
/// them, fed by their own kept fixes and thinned: a fix within `spacingMeters` of the latest place and within
/// `gapSeconds` of its last visit extends that visit; any other starts a new place. Places last visited more than
/// `keptFor` before the newest fix go, and at most `maxPlaces` are kept (the oldest go first).
public enum Footsteps {
    public static let spacingMeters = 50.0
    public static let gapSeconds: TimeInterval = 600
    public static let keptFor: TimeInterval = 365 * 86_400
    public static let maxPlaces = 100_000

    /// What a fix at `coordinate`, taken at `time`, makes of a history whose latest place is `last`: that place
    /// with its last visit moved (`extendsLast`), or a new place.
    public static func next(after last: Footstep?, coordinate: Coordinate, at time: Date) -> (place: Footstep, extendsLast: Bool) {
        if let last, time.timeIntervalSince(last.lastVisit) < gapSeconds, time >= last.lastVisit,
           Geodesic.wgs84.distance(last.coordinate, coordinate) < spacingMeters {
            return (Footstep(coordinate: last.coordinate, firstVisit: last.firstVisit, lastVisit: time), true)
        }
        return (Footstep(coordinate: coordinate, firstVisit: time, lastVisit: time), false)
    }
}

/// Where a page of a person's places ends: after the places first visited before `firstVisitMilliseconds`, and
/// `skip` of those first visited at that millisecond. Written "MS.SKIP"; a page's cursor stays right when older
/// places go (the year, the cap) or new ones come, but for places sharing the cursor's millisecond (only fixes
/// arriving out of order leave those, on Redis).
public struct FootstepsCursor: Hashable, Sendable, CustomStringConvertible {
    public let firstVisitMilliseconds: Int64
    public let skip: Int

    public var description: String { "\(firstVisitMilliseconds).\(skip)" }
}

extension FootstepsCursor {
    /// Reads a cursor as `description` writes it; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 18 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let milliseconds = Int64(parts[0]), let skip = Int(parts[1]) else { return nil }
        self.init(firstVisitMilliseconds: milliseconds, skip: skip)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}

extension Footsteps {
    /// Places a page holds at most, and by default.
    public static let pageSizes = 1...1000

    /// A page of `places` (oldest first by first visit, ties in their order): at most `limit` after `cursor`, and the
    /// cursor of the next page when more follow.
    public static func page(_ places: [Footstep], after cursor: FootstepsCursor?, limit: Int) -> (places: [Footstep], next: FootstepsCursor?) {
        let ordered = places.enumerated().sorted { ($0.element.firstVisit, $0.offset) < ($1.element.firstVisit, $1.offset) }.map(\.element)
        var start = 0
        if let cursor {
            start = ordered.firstIndex { FootstepsCursor.milliseconds($0.firstVisit) >= cursor.firstVisitMilliseconds } ?? ordered.count
            var skipped = 0
            while skipped < cursor.skip, start < ordered.count, FootstepsCursor.milliseconds(ordered[start].firstVisit) == cursor.firstVisitMilliseconds {
                start += 1
                skipped += 1
            }
        }
        let page = Array(ordered[start..<min(ordered.count, start + max(1, limit))])
        guard let last = page.last, start + page.count < ordered.count else { return (page, nil) }
        let lastMilliseconds = FootstepsCursor.milliseconds(last.firstVisit)
        let sameBefore = ordered[..<(start + page.count)].reversed().prefix { FootstepsCursor.milliseconds($0.firstVisit) == lastMilliseconds }.count
        return (page, FootstepsCursor(firstVisitMilliseconds: lastMilliseconds, skip: sameBefore))
    }
}
