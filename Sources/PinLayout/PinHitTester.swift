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
/// least 44 × 44 pt around it, labels are targets too, and the topmost (highest z-index) wins. Targets are
/// kept in a coarse grid so a query looks at a handful of them.
public struct PinHitTester: Sendable {
    private struct Target: Sendable {
        let rect: ScreenRect
        let zIndex: Int
        let order: Int
        let result: HitResult
    }

    private let targets: [Target]
    private let cellSize: Double
    private let cells: [Int: [Int]]
    private let columns: Int

    public init(layout: PinLayoutResult, style: PinStyle) {
        var targets: [Target] = []
        func add(avatar: ScreenRect?, label: ScreenRect?, zIndex: Int, kind: HitResult.Kind, id: String, members: [String]?) {
            if let avatar {
                let side = max(style.minimumTouchTarget, avatar.width)
                let rect = ScreenRect(x: avatar.center.x - side / 2, y: avatar.center.y - side / 2, width: side, height: side)
                targets.append(Target(rect: rect, zIndex: zIndex, order: targets.count, result: HitResult(kind: kind, id: id, members: members)))
            }
            if let label {
                targets.append(Target(rect: label, zIndex: zIndex, order: targets.count, result: HitResult(kind: .label, id: id, members: members)))
            }
        }
        for pin in layout.pins where pin.visible && pin.groupId == nil {
            add(avatar: pin.avatarRect, label: pin.labelRect, zIndex: pin.zIndex, kind: .pin, id: pin.id, members: nil)
        }
        for group in layout.groups where group.visible {
            add(avatar: group.avatarRect, label: group.labelRect, zIndex: group.zIndex, kind: .group, id: group.id, members: group.members)
        }
        cellSize = style.gridCell * 4
        columns = Int((layout.viewport.size.width / cellSize).rounded(.up)) + 2
        var cells: [Int: [Int]] = [:]
        for (index, target) in targets.enumerated() {
            for key in Self.keys(target.rect, cellSize: cellSize, columns: columns) { cells[key, default: []].append(index) }
        }
        self.targets = targets
        self.cells = cells
    }

    private static func keys(_ rect: ScreenRect, cellSize: Double, columns: Int) -> [Int] {
        let x0 = Int((rect.minX / cellSize).rounded(.down)) + 1, x1 = Int((rect.maxX / cellSize).rounded(.down)) + 1
        let y0 = Int((rect.minY / cellSize).rounded(.down)) + 1, y1 = Int((rect.maxY / cellSize).rounded(.down)) + 1
        return (y0...y1).flatMap { y in (max(x0, 0)...min(max(x1, 0), columns - 1)).map { y * columns + $0 } }
    }

    /// The largest cell index a tap is looked up at (taps further out hit nothing).
    static let maxCellIndex = 1e9

    /// The topmost target under `point`, or `.none` for empty map.
    public func hit(_ point: ScreenPoint) -> HitResult {
        let row = (point.y / cellSize).rounded(.down) + 1, column = (point.x / cellSize).rounded(.down) + 1
        // Anything beyond a generous band around the viewport hits nothing (and never reaches an Int conversion).
        guard abs(row) < Self.maxCellIndex, abs(column) < Self.maxCellIndex else { return .none }
        let key = Int(row) * columns + min(max(Int(column), 0), columns - 1)
        var best: Target?
        for index in cells[key] ?? [] {
            let target = targets[index]
            guard target.rect.contains(point) else { continue }
            if let current = best, (current.zIndex, -current.order) >= (target.zIndex, -target.order) { continue }
            best = target
        }
        return best?.result ?? .none
    }
}
