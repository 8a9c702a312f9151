import Foundation
import GeoCore

/// Lays out friends' pins for a viewport. Friends whose round avatars would overlap by more than the style allows
/// are grouped first, at every zoom (`GroupHierarchy`); then every avatar and group on screen is placed (a friend
/// is never hidden, only a label is dropped), then labels in priority order, each on its previous anchor or the
/// first free one of eight, in full or short form, covering no avatar (nor what its pin draws beyond it, a pose) and
/// no label; a label that fits nowhere is dropped and says why in the JSON. Nothing goes under the insets.
public struct PinLayoutEngine: Sendable {
    public let style: PinStyle
    public let measurer: any TextMeasuring
    /// Where groupings are kept between layouts of the same friends (none: each layout groups afresh).
    public let groupings: GroupingCache?
    /// What pins draw beyond their avatars, which labels keep clear of (none: pins are their avatars alone).
    public let footprints: (any PinFootprinting)?

    public init(style: PinStyle, measurer: any TextMeasuring, groupings: GroupingCache? = nil, footprints: (any PinFootprinting)? = nil) {
        self.style = style
        self.measurer = measurer
        self.groupings = groupings
        self.footprints = footprints
    }

    /// A cluster being laid out: members as indices into the priority-ordered subjects.
    private struct Cluster {
        var members: [Int]
        let point: ScreenPoint
        var avatar: ScreenRect?
        /// What the pin draws beyond its avatar (its poses), which its own label goes around.
        var extent: ScreenRect?
        var label: ScreenRect?
        var anchor: LabelAnchor?
        var labelShort = false
        var labelHidden: String?
        var hidden: String?
        var splitZoom: Int?

        init(members: [Int], point: ScreenPoint) {
            self.members = members
            self.point = point
        }
    }

    /// Avatars closer than this (centre to centre) group: the sum of the radii less the overlap the style allows.
    public var groupingDistance: Double { style.avatarSize * (1 - style.groupOverlap) }

    public func layout(subjects: [PinSubject], viewport: Viewport, selected: String? = nil, now: Date,
                       previousAnchors: [String: LabelAnchor] = [:]) -> PinLayoutResult {
        // What depends on the friends alone (their order, places and groups at every zoom) is made once for them.
        let grouped = groupings?.grouped(subjects, selected: selected, distance: groupingDistance)
            ?? GroupedSubjects(subjects: subjects, selected: selected, distance: groupingDistance)
        let (ordered, hierarchy, groupable, selectedIndex) = (grouped.ordered, grouped.hierarchy, grouped.groupable, grouped.selectedIndex)
        let points = grouped.metres.map { viewport.point(forMercator: $0) }
        let reach = viewport.bounds.inset(by: EdgeInsets(all: -style.avatarSize))
        let half = style.avatarSize / 2

        // The selected friend (first in priority order) stands alone: never grouped, never joined. Everyone else
        // is grouped over the whole map, not the screen, so that groups do not change as the map pans.
        let level = GroupHierarchy.level(of: viewport.zoom)
        var clusters = (selectedIndex.flatMap { reach.contains(points[$0]) ? [Cluster(members: [$0], point: points[$0])] : nil } ?? [])
        let shown = hierarchy.groups(at: level)
        let friends = hierarchy.members(at: level)
        for index in 0..<shown.count {
            let point = viewport.point(forMercator: MercatorPoint(x: shown.x[index], y: shown.y[index]))
            guard reach.contains(point) else { continue }
            var cluster = Cluster(members: friends.members[friends.start[index]..<friends.start[index + 1]].map { groupable[$0] }, point: point)
            if shown.weight[index] > 1 { cluster.splitZoom = hierarchy.splitZoom(of: index, at: level) }
            clusters.append(cluster)
        }
        // With nobody selected every rank is the same and members come in priority order: the first leads.
        let unselectedRank = grouped.unselectedRank
        let leader = { (members: [Int]) -> PinSubject in
            guard !unselectedRank.isEmpty else { return ordered[members[0]] }
            return ordered[members.min { (unselectedRank[ordered[$0].id] ?? 0) < (unselectedRank[ordered[$1].id] ?? 0) } ?? members[0]]
        }
        func key(_ cluster: Cluster) -> String {
            cluster.members.count == 1 ? ordered[cluster.members[0]].id : Self.groupID(leader(cluster.members))
        }
        func avatarRect(_ centre: ScreenPoint) -> ScreenRect { ScreenRect(x: centre.x - half, y: centre.y - half, width: style.avatarSize, height: style.avatarSize) }

        // Every avatar on screen is drawn, first: a label may be dropped, a friend never hidden. Groups at a level lie
        // the grouping distance apart or more; only the selected friend, who stands alone, may overlap a group,
        // and is drawn above it.
        var placement = SymbolPlacement(style: style, free: viewport.freeRect)
        var placed: [Int] = []
        for index in clusters.indices {
            guard placement.free.contains(avatarRect(clusters[index].point)) else {
                clusters[index].hidden = "outside the part of the screen the insets leave free"
                continue
            }
            let avatar = avatarRect(clusters[index].point)
            let extent = footprints?.extent(poses: clusters[index].members.map { ordered[$0].pose }, avatar: avatar, scale: viewport.scale)
            placement.placeAvatar(at: clusters[index].point, extent: extent)
            placed.append(index)
            (clusters[index].avatar, clusters[index].extent) = (avatar, extent)
        }
        // Then labels, in priority order, each where it covers no avatar and no label placed before it.
        for (avatar, index) in placed.enumerated() {
            let members = clusters[index].members
            switch placeLabel(members.prefix(2).map { ordered[$0] }, count: members.count, avatar: clusters[index].avatar!, extent: clusters[index].extent, number: avatar, previous: previousAnchors[key(clusters[index])], now: now,
                              placement: &placement) {
            case .placed(let rect, let anchor, let short):
                (clusters[index].label, clusters[index].anchor, clusters[index].labelShort) = (rect, anchor, short)
            case .hidden(let reason):
                clusters[index].labelHidden = reason
            }
        }
        return result(ordered: ordered, points: points, clusters: clusters, placed: placed, viewport: viewport, selected: selected, now: now,
                      leader: leader)
    }

    private enum LabelOutcome {
        case placed(ScreenRect, LabelAnchor, short: Bool)
        case hidden(String)
    }

    /// The first fit for a symbol's label (its avatar the `number`th placed, drawing `extent` beyond it): the full
    /// text on its previous anchor or the first of the twelve that is free, then the short text the same way; a
    /// label that fits nowhere is dropped, and says what blocked it.
    private func placeLabel(_ named: [PinSubject], count: Int, avatar: ScreenRect, extent: ScreenRect?, number: Int, previous: LabelAnchor?, now: Date,
                            placement: inout SymbolPlacement) -> LabelOutcome {
        let anchors = (previous.map { [$0] } ?? []) + LabelAnchor.allCases.filter { $0 != previous }
        var blockers = LabelBlockers()
        for short in [false, true] {
            let text = labelText(named, count: count, now: now, short: short)
            let size = ScreenSize(width: labelWidth(text) + 2 * style.labelPaddingX, height: style.labelHeight)
            for anchor in anchors {
                let rect = labelRect(anchor, avatar: avatar, size: size, around: extent)
                let found = placement.blockers(of: rect, owner: number, besides: blockers)
                guard found.isEmpty else {
                    blockers.formUnion(found)
                    continue
                }
                placement.placeLabel(rect)
                return .placed(rect, anchor, short: short)
            }
        }
        return .hidden(blockers.reason)
    }

    /// The label's text: "Jordan · 2m" for one friend, "Maya, Noah" or "Jordan, Ava +3" for a group; the short
    /// form is "Jordan", "Maya +1".
    public func labelText(_ members: [PinSubject], now: Date, short: Bool = false) -> (name: String, detail: String) {
        labelText(Array(members.prefix(2)), count: members.count, now: now, short: short)
    }

    /// The same text from the first two of `count` members (all of them when fewer), which are all it names.
    func labelText(_ named: [PinSubject], count: Int, now: Date, short: Bool) -> (name: String, detail: String) {
        switch (count, short) {
        case (1, _): return labelText(named[0], now: now, short: short)
        case (2, false): return (named[0].firstName + ", " + named[1].firstName, "")
        case (_, false): return (named[0].firstName + ", " + named[1].firstName, " +\(count - 2)")
        default: return (named[0].firstName, " +\(count - 1)")
        }
    }

    /// One friend's label text, "Jordan · 2m" or, short, "Jordan".
    func labelText(_ subject: PinSubject, now: Date, short: Bool) -> (name: String, detail: String) {
        (subject.firstName, short ? "" : " · " + LastSeenText.text(lastSeen: subject.lastSeen, now: now))
    }

    /// The label's text width: the name and detail runs are measured (and drawn) one after the other.
    public func labelWidth(_ text: (name: String, detail: String)) -> Double {
        measurer.advance(of: text.name, fontSize: style.labelFontSize)
            + (text.detail.isEmpty ? 0 : measurer.advance(of: text.detail, fontSize: style.labelFontSize))
    }

    static func groupID(_ leader: PinSubject) -> String { "group-" + leader.id }

    /// A label's box at an anchor, moved out past `own` (what its pin draws beyond the avatar, a pose) when it would
    /// cover it: away from the avatar along the anchor's direction (at a corner, along the axis that moves it least),
    /// so a pin's own pose never blocks its own label, which never covers it either.
    private func labelRect(_ anchor: LabelAnchor, avatar: ScreenRect, size: ScreenSize, around own: ScreenRect?) -> ScreenRect {
        let rect = labelRect(anchor, avatar: avatar, size: size)
        guard let own, rect.overlaps(own) else { return rect }
        let (dx, dy) = Self.direction(anchor)
        let gap = style.labelGap
        let x = dx > 0 ? own.maxX + gap : own.minX - gap - rect.width
        let y = dy > 0 ? own.maxY + gap : own.minY - gap - rect.height
        let moved = (x: ScreenRect(x: x, y: rect.y, width: rect.width, height: rect.height),
                     y: ScreenRect(x: rect.x, y: y, width: rect.width, height: rect.height))
        if dx == 0 { return moved.y }
        if dy == 0 { return moved.x }
        return abs(x - rect.x) < abs(y - rect.y) ? moved.x : moved.y
    }

    /// Which way an anchor lies from its avatar: -1, 0 or 1 across, then down.
    private static func direction(_ anchor: LabelAnchor) -> (Int, Int) {
        switch anchor {
        case .below, .belowToLeft, .belowToRight: return (0, 1)
        case .above, .aboveToLeft, .aboveToRight: return (0, -1)
        case .right: return (1, 0)
        case .left: return (-1, 0)
        case .belowRight: return (1, 1)
        case .belowLeft: return (-1, 1)
        case .aboveRight: return (1, -1)
        case .aboveLeft: return (-1, -1)
        }
    }

    /// A label's box at an anchor: beside the avatar's box on a side, touching its circle at 45° at a corner, or
    /// below or above it with one end on its centre line.
    private func labelRect(_ anchor: LabelAnchor, avatar: ScreenRect, size: ScreenSize) -> ScreenRect {
        let gap = style.labelGap
        let (w, h) = (size.width, size.height)
        let inset = avatar.width / 2 * (1 - 0.5.squareRoot())
        switch anchor {
        case .below: return ScreenRect(x: avatar.center.x - w / 2, y: avatar.maxY + gap, width: w, height: h)
        case .above: return ScreenRect(x: avatar.center.x - w / 2, y: avatar.minY - gap - h, width: w, height: h)
        case .right: return ScreenRect(x: avatar.maxX + gap, y: avatar.center.y - h / 2, width: w, height: h)
        case .left: return ScreenRect(x: avatar.minX - gap - w, y: avatar.center.y - h / 2, width: w, height: h)
        case .belowRight: return ScreenRect(x: avatar.maxX - inset + gap, y: avatar.maxY - inset + gap, width: w, height: h)
        case .belowLeft: return ScreenRect(x: avatar.minX + inset - gap - w, y: avatar.maxY - inset + gap, width: w, height: h)
        case .aboveRight: return ScreenRect(x: avatar.maxX - inset + gap, y: avatar.minY + inset - gap - h, width: w, height: h)
        case .aboveLeft: return ScreenRect(x: avatar.minX + inset - gap - w, y: avatar.minY + inset - gap - h, width: w, height: h)
        case .belowToLeft: return ScreenRect(x: avatar.center.x - w, y: avatar.maxY + gap, width: w, height: h)
        case .belowToRight: return ScreenRect(x: avatar.center.x, y: avatar.maxY + gap, width: w, height: h)
        case .aboveToLeft: return ScreenRect(x: avatar.center.x - w, y: avatar.minY - gap - h, width: w, height: h)
        case .aboveToRight: return ScreenRect(x: avatar.center.x, y: avatar.minY - gap - h, width: w, height: h)
        }
    }

    /// `leader` names a group: its member first in priority order when nobody is selected, so a group keeps its
    /// id whoever is selected.
    private func result(ordered: [PinSubject], points: [ScreenPoint], clusters: [Cluster], placed: [Int], viewport: Viewport,
                        selected: String?, now: Date, leader: ([Int]) -> PinSubject) -> PinLayoutResult {
        var zIndex = [Int](repeating: 0, count: clusters.count)
        for (rank, index) in placed.enumerated() { zIndex[index] = placed.count - rank }
        var owner = [Int](repeating: -1, count: ordered.count)
        var containing = [Int](repeating: -1, count: ordered.count)
        for (index, cluster) in clusters.enumerated() { for member in cluster.members { containing[member] = index } }
        // A friend's group id is their cluster's, found through `owner`: nothing is written for each member.
        var groupID = [String?](repeating: nil, count: clusters.count)
        var groups: [LaidOutGroup] = []
        for index in placed {
            let cluster = clusters[index]
            for member in cluster.members { owner[member] = index }
            guard cluster.members.count > 1 else { continue }
            let id = Self.groupID(leader(cluster.members))
            groupID[index] = id
            let first = ordered[cluster.members[0]]
            let text = labelText(cluster.members.prefix(2).map { ordered[$0] }, count: cluster.members.count, now: now, short: cluster.labelShort)
            groups.append(LaidOutGroup(id: id, members: cluster.members.map { ordered[$0].id }, labelText: text.name + text.detail,
                                       coordinate: (try? viewport.coordinate(at: cluster.point)) ?? first.coordinate,
                                       screenPoint: cluster.point, visible: true, avatarRect: cluster.avatar, labelRect: cluster.label,
                                       anchor: cluster.anchor, labelShort: cluster.labelShort, labelHidden: cluster.labelHidden, zIndex: zIndex[index],
                                       splitZoom: cluster.splitZoom))
        }
        // A friend in a group reads nothing of its cluster but whether it is drawn: only a friend alone copies theirs.
        let alone = clusters.map { $0.members.count == 1 }
        let pins = HugePages.map(ordered.count) { index -> LaidOutPin in
            let subject = ordered[index]
            let drawn = owner[index] >= 0
            let cluster = drawn && alone[owner[index]] ? clusters[owner[index]] : nil
            let hidden = drawn ? nil : (containing[index] >= 0 ? clusters[containing[index]].hidden : nil) ?? "outside the screen"
            return LaidOutPin(id: subject.id, name: subject.name, labelText: cluster?.labelShort == true ? subject.firstName : FriendLabel.text(subject, now: now),
                              coordinate: subject.coordinate,
                              screenPoint: points[index], visible: drawn, avatarRect: cluster?.avatar, labelRect: cluster?.label,
                              anchor: cluster?.anchor, labelShort: cluster?.labelShort == true, labelHidden: cluster?.labelHidden, hidden: hidden,
                              groupId: drawn ? groupID[owner[index]] : nil, zIndex: drawn ? zIndex[owner[index]] : 0, selected: subject.id == selected,
                              pose: subject.pose)
        }
        return PinLayoutResult(viewport: viewport, now: now, selected: selected, pins: pins, groups: groups)
    }
}
