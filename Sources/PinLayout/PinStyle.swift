/// The sizes of pins and labels in points, from the `pins` section of the style.
public struct PinStyle: Hashable, Sendable, Codable {
    public let avatarSize: Double
    public let ringWidth: Double
    public let labelFontSize: Double
    public let labelHeight: Double
    public let labelPaddingX: Double
    /// The gap between an avatar and its label.
    public let labelGap: Double
    /// The smallest touch target side (Apple's 44 pt).
    public let minimumTouchTarget: Double
    /// The collision grid's cell size.
    public let gridCell: Double
    /// Avatars closer than this fraction of their size (overlapping by more than half) become one group.
    public let groupOverlap: Double
    /// The most overlap a style may ask for: avatars group when closer than a quarter of their size or more.
    public static let maxGroupOverlap = 0.75

    public init(avatarSize: Double = 48, ringWidth: Double = 3, labelFontSize: Double = 13, labelHeight: Double = 24,
                labelPaddingX: Double = 10, labelGap: Double = 4, minimumTouchTarget: Double = 44, gridCell: Double = 25,
                groupOverlap: Double = 0.5) {
        self.avatarSize = avatarSize
        self.ringWidth = ringWidth
        self.labelFontSize = labelFontSize
        self.labelHeight = labelHeight
        self.labelPaddingX = labelPaddingX
        self.labelGap = labelGap
        self.minimumTouchTarget = minimumTouchTarget
        self.gridCell = gridCell
        self.groupOverlap = groupOverlap
    }
}

/// Measures label text in points; Raster's font implements it, tests can use a fixed-width stand-in.
public protocol TextMeasuring: Sendable {
    /// The advance of `text` at `fontSize` points.
    func advance(of text: String, fontSize: Double) -> Double
}
