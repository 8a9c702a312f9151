import GeoCore

/// What a tap hit.
public struct HitResult: Hashable, Sendable, Codable {
    public enum Kind: String, Sendable, Codable { case pin, group, label, none }

    public let kind: Kind
    /// The friend's id, or the group's.
    public let id: String?
    /// For a group (or a group's label): its members in priority order.
    public let members: [String]?

    public static let none = HitResult(kind: .none, id: nil, members: nil)
}

/// Answers which pin, group or label is under a screen point: every visible avatar has a touch target of at
/// least 44 × 44 pt around it, what its pin draws beyond it (a pose) hits it too, labels are targets too, and the
/// topmost (highest z-index) wins. Targets are kept in a `GridIndex` so a query looks at a handful of them.
public struct PinHitTester: Sendable {
    private struct Target: Sendable {
        let rect: ScreenRect
        let zIndex: Int
        let result: HitResult
    }

    private let targets: [Target]
    private let index: GridIndex<Points>

    /// The targets of `layout`'s visible pins and groups; `footprints` says what pins draw beyond their avatars.
    public init(layout: PinLayoutResult, style: PinStyle, footprints: (any PinFootprinting)? = nil) {
        var targets: [Target] = []
        let poses = footprints == nil ? [:] : Dictionary(layout.pins.map { ($0.id, $0.pose) }, uniquingKeysWith: { first, _ in first })
        func add(avatar: ScreenRect?, label: ScreenRect?, zIndex: Int, kind: HitResult.Kind, id: String, members: [String]?) {
            if let avatar {
                let side = max(style.minimumTouchTarget, avatar.width)
                let rect = ScreenRect(x: avatar.center.x - side / 2, y: avatar.center.y - side / 2, width: side, height: side)
                targets.append(Target(rect: rect, zIndex: zIndex, result: HitResult(kind: kind, id: id, members: members)))
                if let extent = footprints?.extent(poses: (members ?? [id]).map { poses[$0] ?? "standing" }, avatar: avatar, scale: layout.viewport.scale) {
                    targets.append(Target(rect: extent, zIndex: zIndex, result: HitResult(kind: kind, id: id, members: members)))
                }
            }
            if let label {
                targets.append(Target(rect: label, zIndex: zIndex, result: HitResult(kind: .label, id: id, members: members)))
            }
        }
        for pin in layout.pins where pin.visible && pin.groupId == nil {
            add(avatar: pin.avatarRect, label: pin.labelRect, zIndex: pin.zIndex, kind: .pin, id: pin.id, members: nil)
        }
        for group in layout.groups where group.visible {
            add(avatar: group.avatarRect, label: group.labelRect, zIndex: group.zIndex, kind: .group, id: group.id, members: group.members)
        }
        var index = GridIndex(extent: ScreenRect(x: 0, y: 0, width: layout.viewport.size.width, height: layout.viewport.size.height),
                              cellSize: style.gridCell * 4)
        for (key, target) in targets.enumerated() { index.insert(key, target.rect) }
        self.targets = targets
        self.index = index
    }

    /// The topmost target under `point`, or `.none` for empty map (and for any point that is not finite).
    public func hit(_ point: ScreenPoint) -> HitResult {
        guard point.x.isFinite, point.y.isFinite else { return .none }
        var best: Int?
        index.forEach(meeting: ScreenRect(x: point.x, y: point.y, width: 0, height: 0)) { key in
            guard targets[key].rect.contains(point) else { return }
            if let current = best, (targets[current].zIndex, -current) >= (targets[key].zIndex, -key) { return }
            best = key
        }
        return best.map { targets[$0].result } ?? .none
    }
}
