import GeoCore

/// What has been placed so far while laying out pins: round avatars and label boxes, each in a collision grid,
/// with the owner of each label (to say whose label hid an avatar).
struct SymbolPlacement {
    let radius: Double
    let free: ScreenRect
    private var avatarGrid: CollisionGrid
    private var avatarCentres: [ScreenPoint] = []
    private var labelGrid: CollisionGrid
    private var labelOwners: [String] = []

    init(style: PinStyle, free: ScreenRect) {
        radius = style.avatarSize / 2
        self.free = free
        avatarGrid = CollisionGrid(cellSize: style.gridCell)
        labelGrid = CollisionGrid(cellSize: style.gridCell)
    }

    /// Whether a rectangle and a circle share area (touching does not count).
    static func intersects(_ rect: ScreenRect, circle centre: ScreenPoint, radius: Double) -> Bool {
        let x = min(max(centre.x, rect.minX), rect.maxX)
        let y = min(max(centre.y, rect.minY), rect.maxY)
        let (dx, dy) = (centre.x - x, centre.y - y)
        return dx * dx + dy * dy < radius * radius
    }

    func box(around centre: ScreenPoint) -> ScreenRect {
        ScreenRect(x: centre.x - radius, y: centre.y - radius, width: 2 * radius, height: 2 * radius)
    }

    /// The owner of a placed label the avatar at `centre` would sit under, if any.
    func labelOwner(under centre: ScreenPoint) -> String? {
        labelGrid.overlapping(box(around: centre)).first { Self.intersects(labelGrid.boxes[$0], circle: centre, radius: radius) }.map { labelOwners[$0] }
    }

    mutating func placeAvatar(at centre: ScreenPoint) {
        avatarGrid.insert(box(around: centre))
        avatarCentres.append(centre)
    }

    mutating func placeLabel(_ rect: ScreenRect, owner: String) {
        labelGrid.insert(rect)
        labelOwners.append(owner)
    }

    /// What keeps a label box out: the screen's free area, a placed label, a placed avatar, or one of
    /// `pending` (avatars not placed yet); empty when it fits.
    func blockers(of rect: ScreenRect, pending: [ScreenPoint]) -> Set<LabelBlocker> {
        var found = Set<LabelBlocker>()
        if !free.contains(rect) { found.insert(.edge) }
        if labelGrid.collides(rect) { found.insert(.label) }
        if avatarGrid.overlapping(rect).contains(where: { Self.intersects(rect, circle: avatarCentres[$0], radius: radius) })
            || pending.contains(where: { Self.intersects(rect, circle: $0, radius: radius) }) {
            found.insert(.avatar)
        }
        return found
    }
}

/// Why a label could not go somewhere.
enum LabelBlocker: String, Comparable {
    case edge = "the screen edge"
    case label = "other labels"
    case avatar = "avatars"

    static func < (a: LabelBlocker, b: LabelBlocker) -> Bool { a.rawValue < b.rawValue }
}
