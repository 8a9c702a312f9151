import Foundation
import GeoCore

/// Lays out friends' pins for a viewport: groups friends who stand together, places avatars in priority
/// order (an avatar that would touch a placed one joins its group, so none overlap and nobody vanishes),
/// then places labels in priority order at the first free anchor (below, above, right, left; the previous
/// anchor first when it still fits) against a collision grid. Nothing goes under the insets.
public struct PinLayoutEngine: Sendable {
    public let style: PinStyle
    public let measurer: any TextMeasuring

    public init(style: PinStyle, measurer: any TextMeasuring) {
        self.style = style
        self.measurer = measurer
    }

    /// A cluster being laid out: members as indices into the priority-ordered subjects.
    private struct Cluster {
        var members: [Int]
        let point: ScreenPoint
        var avatar: ScreenRect?
        var label: ScreenRect?
        var anchor: LabelAnchor?
    }

    public func layout(subjects: [PinSubject], viewport: Viewport, selected: String? = nil, now: Date,
                       previousAnchors: [String: LabelAnchor] = [:]) -> PinLayoutResult {
        let ordered = PinPriority.sorted(subjects, selected: selected)
        let points = ordered.map { viewport.point(forMercator: WebMercator.projectUnchecked(lat: $0.coordinate.lat, lon: $0.coordinate.lon)) }
        let reach = viewport.bounds.inset(by: EdgeInsets(all: -style.avatarSize))
        let nearby = points.indices.filter { reach.contains(points[$0]) }
        let free = viewport.freeRect
        let half = style.avatarSize / 2

        // The selected friend (first in priority order) stands alone: never grouped, never joined.
        let selectedIndex = selected == nil ? nil : nearby.first { ordered[$0].id == selected }
        let groupable = nearby.filter { $0 != selectedIndex }
        var clusters = (selectedIndex.map { [Cluster(members: [$0], point: points[$0])] } ?? [])
            + PinGrouping.clusters(of: groupable.map { points[$0] }, threshold: style.avatarSize * (1 - style.groupOverlap)).map { local in
                let members = local.map { groupable[$0] }
                let centre = ScreenPoint(x: members.map { points[$0].x }.reduce(0, +) / Double(members.count),
                                         y: members.map { points[$0].y }.reduce(0, +) / Double(members.count))
                return Cluster(members: members, point: centre)
            }
        var avatars = CollisionGrid(cellSize: style.gridCell)
        var placed: [Int] = []
        for index in clusters.indices {
            let centre = clusters[index].point
            let rect = ScreenRect(x: centre.x - half, y: centre.y - half, width: style.avatarSize, height: style.avatarSize)
            guard free.contains(rect) else { continue }
            if let hit = avatars.firstCollision(rect) {
                // Overlapping the selected friend hides a pin (priority decides); anyone else joins the group it hits.
                if selectedIndex != nil && clusters[placed[hit]].members.contains(where: { $0 == selectedIndex }) {
                    clusters[index].members = []
                    continue
                }
                clusters[placed[hit]].members += clusters[index].members
                clusters[index].members = []
                continue
            }
            avatars.insert(rect)
            placed.append(index)
            clusters[index].avatar = rect
        }

        let unselectedRank = Dictionary(uniqueKeysWithValues: PinPriority.sorted(subjects, selected: nil).enumerated().map { ($1.id, $0) })
        let leader = { (members: [PinSubject]) in members.min { (unselectedRank[$0.id] ?? 0) < (unselectedRank[$1.id] ?? 0) } ?? members[0] }
        var labels = CollisionGrid(cellSize: style.gridCell)
        for index in placed {
            let members = clusters[index].members.sorted()
            clusters[index].members = members
            let text = labelText(members.map { ordered[$0] }, now: now)
            let size = ScreenSize(width: labelWidth(text) + 2 * style.labelPaddingX, height: style.labelHeight)
            let key = members.count == 1 ? ordered[members[0]].id : Self.groupID(leader(members.map { ordered[$0] }))
            var candidates = LabelAnchor.allCases
            if let previous = previousAnchors[key] { candidates.insert(previous, at: 0) }
            for anchor in candidates {
                let rect = labelRect(anchor, avatar: clusters[index].avatar!, size: size)
                guard free.contains(rect), !avatars.collides(rect), !labels.collides(rect) else { continue }
                labels.insert(rect)
                clusters[index].label = rect
                clusters[index].anchor = anchor
                break
            }
        }
        return result(ordered: ordered, points: points, clusters: clusters, placed: placed, viewport: viewport, selected: selected, now: now,
                      leader: leader)
    }

    /// The label's text: "Jordan · 2m" for one friend, "Maya, Noah" or "Maya +2" for a group.
    public func labelText(_ members: [PinSubject], now: Date) -> (name: String, detail: String) {
        switch members.count {
        case 1: return (members[0].firstName, " · " + LastSeenText.text(lastSeen: members[0].lastSeen, now: now))
        case 2: return (members[0].firstName + ", " + members[1].firstName, "")
        default: return (members[0].firstName, " +\(members.count - 1)")
        }
    }

    /// The label's text width: the name and detail runs are measured (and drawn) one after the other.
    public func labelWidth(_ text: (name: String, detail: String)) -> Double {
        measurer.advance(of: text.name, fontSize: style.labelFontSize)
            + (text.detail.isEmpty ? 0 : measurer.advance(of: text.detail, fontSize: style.labelFontSize))
    }

    static func groupID(_ leader: PinSubject) -> String { "group-" + leader.id }

    private func labelRect(_ anchor: LabelAnchor, avatar: ScreenRect, size: ScreenSize) -> ScreenRect {
        let gap = style.labelGap
        switch anchor {
        case .below: return ScreenRect(x: avatar.center.x - size.width / 2, y: avatar.maxY + gap, width: size.width, height: size.height)
        case .above: return ScreenRect(x: avatar.center.x - size.width / 2, y: avatar.minY - gap - size.height, width: size.width, height: size.height)
        case .right: return ScreenRect(x: avatar.maxX + gap, y: avatar.center.y - size.height / 2, width: size.width, height: size.height)
        case .left: return ScreenRect(x: avatar.minX - gap - size.width, y: avatar.center.y - size.height / 2, width: size.width, height: size.height)
        }
    }

    /// `leader` names a group: its member first in priority order when nobody is selected, so a group keeps its
    /// id whoever is selected.
    private func result(ordered: [PinSubject], points: [ScreenPoint], clusters: [Cluster], placed: [Int], viewport: Viewport,
                        selected: String?, now: Date, leader: ([PinSubject]) -> PinSubject) -> PinLayoutResult {
        var zIndex = [Int](repeating: 0, count: clusters.count)
        for (rank, index) in placed.enumerated() { zIndex[index] = placed.count - rank }
        var owner = [Int](repeating: -1, count: ordered.count)
        var groupID = [String?](repeating: nil, count: ordered.count)
        var groups: [LaidOutGroup] = []
        for index in placed {
            let cluster = clusters[index]
            for member in cluster.members { owner[member] = index }
            guard cluster.members.count > 1 else { continue }
            let members = cluster.members.map { ordered[$0] }
            let id = Self.groupID(leader(members))
            for member in cluster.members { groupID[member] = id }
            let text = labelText(members, now: now)
            groups.append(LaidOutGroup(id: id, members: members.map(\.id), labelText: text.name + text.detail,
                                       coordinate: (try? viewport.coordinate(at: cluster.point)) ?? members[0].coordinate,
                                       screenPoint: cluster.point, visible: true, avatarRect: cluster.avatar, labelRect: cluster.label,
                                       anchor: cluster.anchor, zIndex: zIndex[index]))
        }
        let pins = ordered.indices.map { index -> LaidOutPin in
            let subject = ordered[index]
            let text = labelText([subject], now: now)
            let cluster = owner[index] >= 0 ? clusters[owner[index]] : nil
            let alone = cluster?.members.count == 1
            return LaidOutPin(id: subject.id, name: subject.name, labelText: text.name + text.detail, coordinate: subject.coordinate,
                              screenPoint: points[index], visible: cluster != nil, avatarRect: alone ? cluster?.avatar : nil,
                              labelRect: alone ? cluster?.label : nil, anchor: alone ? cluster?.anchor : nil,
                              groupId: groupID[index], zIndex: owner[index] >= 0 ? zIndex[owner[index]] : 0, selected: subject.id == selected)
        }
        return PinLayoutResult(viewport: LayoutViewport(center: viewport.center, zoom: viewport.zoom, size: viewport.size, scale: viewport.scale,
                                                        insets: viewport.insets),
                               now: now, selected: selected, pins: pins, groups: groups)
    }
}
