import Foundation
import GeoCore

/// Where a label sits relative to its avatar (MapLibre's variable anchors, in the order tried): the four sides,
/// then the four corners, then below and above running left or right from the avatar's centre line.
public enum LabelAnchor: String, CaseIterable, Sendable, Codable {
    case below, above, right, left, belowRight, belowLeft, aboveRight, aboveLeft, belowToLeft, belowToRight, aboveToLeft, aboveToRight
}

/// One friend in a layout. A friend in a group is drawn by the group pin; `avatarRect` and `label` are the
/// friend's own only when `groupId` is nil.
public struct LaidOutPin: Hashable, Sendable, Codable {
    public let id: String
    public let name: String
    public let labelText: String
    public let coordinate: Coordinate
    public let screenPoint: ScreenPoint
    /// True when the avatar (this pin's or its group's) is drawn: inside the part of the screen the insets leave free.
    public let visible: Bool
    public let avatarRect: ScreenRect?
    public let labelRect: ScreenRect?
    /// nil when the label fits nowhere (the avatar stays) or the friend is in a group.
    public let anchor: LabelAnchor?
    /// The label shows the first name only (the full text fitted on no anchor).
    public let labelShort: Bool
    /// Why this friend's own label is not shown (nil when it is, or when the friend is in a group).
    public let labelHidden: String?
    /// Why the avatar is not drawn (nil when it is).
    public let hidden: String?
    public let groupId: String?
    /// Higher draws above; the selected pin is topmost.
    public let zIndex: Int
    public let selected: Bool
    /// The Actionmoji pose the avatar shows: flying, driving, birthday, asleep or standing.
    public let pose: String
}

/// Friends who stand together, drawn as one pin with stacked avatars.
public struct LaidOutGroup: Hashable, Sendable, Codable {
    public let id: String
    /// Member ids in priority order.
    public let members: [String]
    public let labelText: String
    public let coordinate: Coordinate
    public let screenPoint: ScreenPoint
    public let visible: Bool
    public let avatarRect: ScreenRect?
    public let labelRect: ScreenRect?
    public let anchor: LabelAnchor?
    /// The label shows the short form ("Maya +1").
    public let labelShort: Bool
    /// Why the group's label is not shown (nil when it is).
    public let labelHidden: String?
    public let zIndex: Int
    /// The whole zoom at which the group splits into two or more (nil when its friends stand together even at
    /// the deepest zoom grouped): where a tap on it zooms.
    public let splitZoom: Int?
}

/// The viewport a layout was made for, as JSON shows it.
public struct LayoutViewport: Hashable, Sendable, Codable {
    public let center: Coordinate
    public let zoom: Double
    public let size: ScreenSize
    public let scale: Double
    public let insets: EdgeInsets
}

/// Every pin and group of a viewport, collisions resolved.
public struct PinLayoutResult: Hashable, Sendable, Codable {
    public let viewport: LayoutViewport
    /// The moment label times ("2m") were computed from.
    public let now: Date
    public let selected: String?
    public let pins: [LaidOutPin]
    public let groups: [LaidOutGroup]
    /// The selected friend's card, when the layout is of the selected frame.
    public var card: SelectionCard?

    public func pin(_ id: String) -> LaidOutPin? { pins.first { $0.id == id } }
    public func group(_ id: String) -> LaidOutGroup? { groups.first { $0.id == id } }

    /// The anchors of every placed label, to pass to the next layout so labels stay put while panning.
    public var anchors: [String: LabelAnchor] {
        var result: [String: LabelAnchor] = [:]
        for pin in pins { if let anchor = pin.anchor { result[pin.id] = anchor } }
        for group in groups { if let anchor = group.anchor { result[group.id] = anchor } }
        return result
    }
}
