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

    /// A cluster being laid out: its members are `members[range]` of the layout's one array of places in the
    /// priority order.
    private struct Cluster {
        var members: Range<Int>
        let point: ScreenPoint
        var avatar: ScreenRect?
        var label: ScreenRect?
        var anchor: LabelAnchor?
        var labelShort = false
        var labelHidden: String?
        var hidden: String?
        var splitZoom: Int?

        init(point: ScreenPoint) {
            self.members = 0..<0
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
        let (hierarchy, groupable, selectedIndex) = (grouped.hierarchy, grouped.groupable, grouped.selectedIndex)
        let points = grouped.metres.map { viewport.point(forMercator: $0) }
        let reach = viewport.bounds.inset(by: EdgeInsets(all: -style.avatarSize))
        let half = style.avatarSize / 2

        // The selected friend (first in priority order) stands alone: never grouped, never joined. Everyone else
        // is grouped over the whole map, not the screen, so that groups do not change as the map pans.
        let level = GroupHierarchy.level(of: viewport.zoom)
        var clusters = (selectedIndex.flatMap { reach.contains(points[$0]) ? [Cluster(point: points[$0])] : nil } ?? [])
        let firstGroup = clusters.count
        var sizes = [Int](repeating: 1, count: firstGroup)
        let shown = hierarchy.groups(at: level)
        var groupsShown: [Int] = []
        for index in 0..<shown.count {
            let point = viewport.point(forMercator: MercatorPoint(x: shown.x[index], y: shown.y[index]))
            guard reach.contains(point) else { continue }
            var cluster = Cluster(point: point)
            if shown.weight[index] > 1 { cluster.splitZoom = hierarchy.splitZoom(of: index, at: level) }
            clusters.append(cluster)
            sizes.append(shown.weight[index])
            groupsShown.append(index)
        }
        // Each friend's cluster (-1: none), then each cluster's members in priority order, side by side: counted by
        // the groups' weights and written in one walk over the order, with no array a cluster and no sort.
        var clusterOf = [Int32](repeating: -1, count: grouped.order.count)
        if let selectedIndex, firstGroup == 1 { clusterOf[selectedIndex] = 0 }
        hierarchy.forEachFriend(of: groupsShown, at: level) { friend, group in clusterOf[groupable[friend]] = Int32(firstGroup + group) }
        var fill = [Int](repeating: 0, count: clusters.count)
        var total = 0
        for index in clusters.indices {
            (fill[index], total) = (total, total + sizes[index])
            clusters[index].members = fill[index]..<total
        }
        var members = [Int32](repeating: 0, count: total)
        for (index, cluster) in clusterOf.enumerated() where cluster >= 0 {
            members[fill[Int(cluster)]] = Int32(index)
            fill[Int(cluster)] += 1
        }
        // With nobody selected every rank is the same and members come in priority order: the first leads.
        let unselectedRank = grouped.unselectedRank
        let leader = { (members: ArraySlice<Int32>) -> PinSubject in
            let first = members[members.startIndex]
            guard !unselectedRank.isEmpty else { return grouped.subject(Int(first)) }
            let rank = { (member: Int32) in unselectedRank[grouped.subject(Int(member)).id] ?? 0 }
            return grouped.subject(Int(members.min { rank($0) < rank($1) } ?? first))
        }
        func key(_ cluster: Cluster) -> String {
            cluster.members.count == 1 ? grouped.subject(Int(members[cluster.members.lowerBound])).id : Self.groupID(leader(members[cluster.members]))
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
            let extent = footprints?.extent(poses: members[clusters[index].members].map { grouped.subject(Int($0)).pose }, avatar: avatar,
                                            scale: viewport.scale)
            placement.placeAvatar(at: clusters[index].point, extent: extent)
            placed.append(index)
            clusters[index].avatar = avatar
        }
        // Then labels, in priority order, each where it covers no avatar and no label placed before it.
        for (avatar, index) in placed.enumerated() {
            let named = members[clusters[index].members].prefix(2).map { grouped.subject(Int($0)) }
            switch placeLabel(named, count: clusters[index].members.count, avatar: clusters[index].avatar!, number: avatar,
                              previous: previousAnchors[key(clusters[index])], now: now, placement: &placement) {
            case .placed(let rect, let anchor, let short):
                (clusters[index].label, clusters[index].anchor, clusters[index].labelShort) = (rect, anchor, short)
            case .hidden(let reason):
                clusters[index].labelHidden = reason
            }
        }
        return result(grouped, points: points, clusters: clusters, members: members, clusterOf: clusterOf, placed: placed, viewport: viewport,
                      selected: selected, now: now, leader: leader)
    }

    private enum LabelOutcome {
        case placed(ScreenRect, LabelAnchor, short: Bool)
        case hidden(String)
    }

    /// The first fit for a symbol's label (its avatar the `number`th placed): the full text on its previous anchor
    /// or the first of the twelve that is free, then the short text the same way; a label that fits nowhere is
    /// dropped, and says what blocked it.
    private func placeLabel(_ named: [PinSubject], count: Int, avatar: ScreenRect, number: Int, previous: LabelAnchor?, now: Date,
                            placement: inout SymbolPlacement) -> LabelOutcome {
        let anchors = (previous.map { [$0] } ?? []) + LabelAnchor.allCases.filter { $0 != previous }
        var blockers = LabelBlockers()
        for short in [false, true] {
            let text = labelText(named, count: count, now: now, short: short)
            let size = ScreenSize(width: labelWidth(text) + 2 * style.labelPaddingX, height: style.labelHeight)
            for anchor in anchors {
                let rect = labelRect(anchor, avatar: avatar, size: size)
                let found = placement.blockers(of: rect, owner: number, besides: blockers)
                guard found.isEmpty else {
                    blockers.formUnion(found)
                    continue
                }
                placement.placeLabel(rect)
                return .placed(rect, anchor, short: short)
            }
        }
        return .hidden("no room on any of its \(LabelAnchor.allCases.count) anchors, in full or short form: blocked by "
                       + blockers.description)
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
    private func result(_ grouped: GroupedSubjects, points: [ScreenPoint], clusters: [Cluster], members: [Int32], clusterOf: [Int32], placed: [Int],
                        viewport: Viewport, selected: String?, now: Date, leader: (ArraySlice<Int32>) -> PinSubject) -> PinLayoutResult {
        var zIndex = [Int](repeating: 0, count: clusters.count)
        for (rank, index) in placed.enumerated() { zIndex[index] = placed.count - rank }
        var groupID = [String?](repeating: nil, count: clusters.count)
        var groups: [LaidOutGroup] = []
        for index in placed {
            let cluster = clusters[index]
            let friends = members[cluster.members]
            guard friends.count > 1 else { continue }
            let id = Self.groupID(leader(friends))
            groupID[index] = id
            let first = grouped.subject(Int(friends[friends.startIndex]))
            let text = labelText(friends.prefix(2).map { grouped.subject(Int($0)) }, count: friends.count, now: now, short: cluster.labelShort)
            groups.append(LaidOutGroup(id: id, members: friends.map { grouped.subject(Int($0)).id }, labelText: text.name + text.detail,
                                       coordinate: (try? viewport.coordinate(at: cluster.point)) ?? first.coordinate,
                                       screenPoint: cluster.point, visible: true, avatarRect: cluster.avatar, labelRect: cluster.label,
                                       anchor: cluster.anchor, labelShort: cluster.labelShort, labelHidden: cluster.labelHidden, zIndex: zIndex[index],
                                       splitZoom: cluster.splitZoom))
        }
        // A friend in a group reads nothing of its cluster but whether it is drawn: only a friend alone copies theirs.
        let pins = points.indices.map { index -> LaidOutPin in
            let subject = grouped.subject(index)
            let containing = Int(clusterOf[index])
            let drawn = containing >= 0 && clusters[containing].avatar != nil
            let cluster = drawn && clusters[containing].members.count == 1 ? clusters[containing] : nil
            let hidden = drawn ? nil : (containing >= 0 ? clusters[containing].hidden : nil) ?? "outside the screen"
            let text = labelText(subject, now: now, short: cluster?.labelShort == true)
            return LaidOutPin(id: subject.id, name: subject.name, labelText: text.name + text.detail, coordinate: subject.coordinate,
                              screenPoint: points[index], visible: drawn, avatarRect: cluster?.avatar, labelRect: cluster?.label,
                              anchor: cluster?.anchor, labelShort: cluster?.labelShort == true, labelHidden: cluster?.labelHidden, hidden: hidden,
                              groupId: drawn ? groupID[containing] : nil, zIndex: drawn ? zIndex[containing] : 0, selected: subject.id == selected,
                              pose: subject.pose)
        }
        return PinLayoutResult(viewport: viewport, now: now, selected: selected, pins: pins, groups: groups)
    }
}
