import Foundation
import GeoCore

/// The sizes of the selected friend's card, in points (from the style).
public struct CardMetrics: Hashable, Sendable, Codable {
    public let cornerRadius: Double
    public let padding: Double
    public let avatarSize: Double
    public let grabberWidth: Double
    public let grabberHeight: Double
    public let nameSize: Double
    public let detailSize: Double
    public let buttonHeight: Double
    /// Room kept under the button for the home indicator.
    public let bottomMargin: Double
}

/// The card that slides up for a selected friend, as a phone would draw it natively: what it says and where each
/// part goes, in the viewport's points.
public struct SelectionCard: Hashable, Sendable, Codable {
    public let friend: String
    public let name: String
    /// "2m ago", "Active now", or "Live · until 9:41 PM" while the friend shares Live Location with the viewer.
    public let seen: String
    public let place: String
    /// From the viewer's own latest fix, when the viewer has one.
    public let distanceMeters: Double?
    public let deepLink: String
    public private(set) var rect: ScreenRect
    public let cornerRadius: Double
    public private(set) var grabberRect: ScreenRect
    public private(set) var avatarRect: ScreenRect
    public private(set) var nameRect: ScreenRect
    public private(set) var detailRect: ScreenRect
    public private(set) var distanceRect: ScreenRect?
    public private(set) var chatButtonRect: ScreenRect
    public let chatLabel: String

    /// Lays the card out at the bottom of a viewport of `size`, `height` points tall.
    public init(friend: PinSubject, place: String, distanceMeters: Double?, now: Date, size: ScreenSize, height: Double, metrics: CardMetrics,
                liveUntil: Date? = nil) {
        let top = size.height - height
        let inner = size.width - 2 * metrics.padding
        let textX = metrics.padding + metrics.avatarSize + metrics.padding * 0.67
        let line = metrics.detailSize * 1.45
        self.friend = friend.id
        name = friend.name
        let ago = LastSeenText.text(lastSeen: friend.lastSeen, now: now)
        seen = liveUntil.map { LiveUntilText.text(until: $0) } ?? (ago == "now" ? "Active now" : "\(ago) ago")
        self.place = place
        self.distanceMeters = distanceMeters
        deepLink = "snapchat://chat/\(friend.id)"
        rect = ScreenRect(x: 0, y: top, width: size.width, height: height)
        cornerRadius = metrics.cornerRadius
        grabberRect = ScreenRect(x: (size.width - metrics.grabberWidth) / 2, y: top + 8, width: metrics.grabberWidth, height: metrics.grabberHeight)
        avatarRect = ScreenRect(x: metrics.padding, y: top + metrics.padding + 4, width: metrics.avatarSize, height: metrics.avatarSize)
        nameRect = ScreenRect(x: textX, y: avatarRect.minY, width: size.width - textX - metrics.padding, height: metrics.nameSize * 1.3)
        detailRect = ScreenRect(x: textX, y: nameRect.maxY + 2, width: nameRect.width, height: line)
        distanceRect = distanceMeters == nil ? nil : ScreenRect(x: textX, y: detailRect.maxY, width: nameRect.width, height: line)
        chatButtonRect = ScreenRect(x: metrics.padding, y: size.height - metrics.bottomMargin - metrics.buttonHeight, width: inner, height: metrics.buttonHeight)
        chatLabel = "Chat"
    }

    /// The card moved down by `offset` points (while it slides up).
    public func moved(down offset: Double) -> SelectionCard {
        var card = self
        func shift(_ rect: ScreenRect) -> ScreenRect { ScreenRect(x: rect.x, y: rect.y + offset, width: rect.width, height: rect.height) }
        card.rect = shift(rect)
        card.grabberRect = shift(grabberRect)
        card.avatarRect = shift(avatarRect)
        card.nameRect = shift(nameRect)
        card.detailRect = shift(detailRect)
        card.distanceRect = distanceRect.map(shift)
        card.chatButtonRect = shift(chatButtonRect)
        return card
    }

    /// The second line: "2m ago · Domino Park".
    public var detailText: String { place.isEmpty ? seen : "\(seen) · \(place)" }

    /// "350 m away", "1.2 km away".
    public var distanceText: String? {
        guard let distanceMeters else { return nil }
        return distanceMeters < 1000 ? "\(Int((distanceMeters / 10).rounded()) * 10) m away" : String(format: "%.1f km away", distanceMeters / 1000)
    }
}
