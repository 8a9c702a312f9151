import GeoCore

/// What has been placed so far while laying out pins: round avatars with the boxes of what they draw beyond their
/// circle (poses), in one collision grid under the box holding both, and label boxes in another.
struct SymbolPlacement {
    let radius: Double
    let free: ScreenRect
    private var avatarGrid: GridIndex<Points>
    private var avatarCentres: [ScreenPoint] = []
    private var extents: [ScreenRect?] = []
    private var labelGrid: GridIndex<Points>
    private var labels: [ScreenRect] = []

    init(style: PinStyle, free: ScreenRect) {
        radius = style.avatarSize / 2
        self.free = free
        avatarGrid = GridIndex(extent: free, cellSize: style.gridCell)
        labelGrid = GridIndex(extent: free, cellSize: style.gridCell)
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

    /// An avatar at `centre`, with `extent`, the box of what its pin draws beyond the circle (nil: nothing).
    mutating func placeAvatar(at centre: ScreenPoint, extent: ScreenRect? = nil) {
        avatarGrid.insert(avatarCentres.count, extent.map { box(around: centre).union($0) } ?? box(around: centre))
        avatarCentres.append(centre)
        extents.append(extent)
    }

    mutating func placeLabel(_ rect: ScreenRect) {
        labelGrid.insert(labels.count, rect)
        labels.append(rect)
    }

    /// What keeps the label box of the `owner`th avatar placed out: the screen's free area, a placed label, a
    /// placed avatar or what it draws beyond its circle, or another avatar as near the box's centre as its own (the
    /// label would seem to name it); empty when it fits. Once one is found, those in `known` are not looked for:
    /// the box is out either way, and the union with `known` is the same.
    func blockers(of rect: ScreenRect, owner: Int, besides known: LabelBlockers = []) -> LabelBlockers {
        var found = LabelBlockers()
        func sought(_ blocker: LabelBlockers) -> Bool { found.isEmpty || !known.contains(blocker) }
        if !free.contains(rect) { found.insert(.edge) }
        if sought(.label), any(in: labelGrid, meeting: rect, where: { labels[$0].overlaps(rect) }) { found.insert(.label) }
        if sought(.avatar), any(in: avatarGrid, meeting: rect, where: {
            Self.intersects(rect, circle: avatarCentres[$0], radius: radius) || extents[$0]?.overlaps(rect) == true
        }) {
            found.insert(.avatar)
        }
        guard sought(.nearer) else { return found }
        let centre = rect.center
        let own = Self.distance(centre, avatarCentres[owner])
        let reach = ScreenRect(x: centre.x - own, y: centre.y - own, width: 2 * own, height: 2 * own)
        if any(in: avatarGrid, meeting: reach, where: { $0 != owner && Self.distance(centre, avatarCentres[$0]) <= own }) { found.insert(.nearer) }
        return found
    }

    private static func distance(_ a: ScreenPoint, _ b: ScreenPoint) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    /// Whether a key of `grid` whose box meets `rect` passes `test` (the walk stops at the first).
    private func any(in grid: GridIndex<Points>, meeting rect: ScreenRect, where test: (Int) -> Bool) -> Bool {
        grid.contains(meeting: rect, where: test)
    }
}

/// Why a label could not go somewhere: kinds of blocker as bits, a set that costs no hashing on the placement path.
struct LabelBlockers: OptionSet {
    let rawValue: UInt8
    static let edge = Self(rawValue: 1 << 0)
    static let label = Self(rawValue: 1 << 1)
    static let avatar = Self(rawValue: 1 << 2)
    static let nearer = Self(rawValue: 1 << 3)

    /// Each kind with what a dropped label's reason calls it, in the alphabetical order of those names.
    static let names: [(kind: LabelBlockers, name: String)] = [(.avatar, "avatars"), (.nearer, "avatars nearer to it than its own"),
                                                               (.label, "other labels"), (.edge, "the screen edge")]

    /// The names of the kinds in the set, in that order, joined by commas.
    var description: String { Self.names.filter { contains($0.kind) }.map(\.name).joined(separator: ", ") }

    /// Why a label blocked by this set on every anchor is dropped, as the layout's JSON says it: one of 16 texts made
    /// once, so a dropped label costs no string building.
    var reason: String { Self.reasons[Int(rawValue)] }

    private static let reasons = (0..<16).map { bits in
        "no room on any of its \(LabelAnchor.allCases.count) anchors, in full or short form: blocked by " + Self(rawValue: UInt8(bits)).description
    }
}
