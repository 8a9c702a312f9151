import Foundation
import GeoCore
import MapScene
import PinDrawing
import PinLayout

/// What a frame is drawn from, for its ETag: all of it and nothing else, so that the tag changes exactly when the
/// bytes can. That is the viewport drawn (centre, zoom, size, scale and insets: the credit sits in the part the insets
/// leave free) and the layers; with the base layer, the base map's style sections (the caller adds the base map's
/// data); the glow's points that reach the view, with its style, when any does; the pins and groups drawn, bottom to
/// top (their boxes, which place names keep clear of, their texts, the selection, and each shown member's name,
/// colour, avatar and look), with the pins' style, when any is; the card as drawn, with its style; the street pieces
/// the footsteps layer tints, with its style, when it tints any. Friends off the
/// frame, the card's exact distance and the clock's minute enter only through what they change of these. Avatar
/// images and the label font are named, not hashed: a new file under the same name needs a new `MapAPI.code`.
extension MapEngine {
    /// The inputs of a frame of `viewport` (the selection camera's, for a selected frame) drawn from `layout` (nil
    /// without pins), as text to hash; `places` are the viewer's Footsteps, for the footsteps layer.
    public func frameInputs(_ viewport: Viewport, layers: Set<MapLayer>, layout: PinLayoutResult?, friends: [Friend], now: Date,
                            places: [MercatorPoint] = []) throws -> String {
        let byID = Dictionary(friends.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let pins = layout.map { layout in
            PinRenderer.drawables(layout, texts: labelTexts(layout, friends: byID)).map { DrawnPin($0, faces: faces($0, byID)) }
        } ?? []
        let card = layout?.card.map { card in
            DrawnCard(card, color: byID[card.friend]?.color, look: cardFace(of: card.friend, among: friends), style: styleSections.card)
        }
        let inputs = FrameInputs(center: viewport.center, zoom: viewport.zoom, size: viewport.size, scale: viewport.scale, insets: viewport.insets,
                                 layers: layers.map(\.rawValue).sorted(), baseStyle: layers.contains(.base) ? styleSections.baseMap : nil,
                                 glow: layers.contains(.heat) ? glowInputs(for: MapView(viewport: viewport), now: now) : nil,
                                 pins: pins, pinStyle: pins.isEmpty ? nil : styleSections.pins, card: card,
                                 footsteps: footstepsInputs(MapView(viewport: viewport), layers: layers, places: places))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(inputs), as: UTF8.self)
    }

    /// The members of a drawable whose avatars are drawn, as they are drawn.
    private func faces(_ drawable: PinRenderer.Drawable, _ byID: [String: Friend]) -> [Face] {
        drawable.members.prefix(PinRenderer.shownMembers).map { id in
            let friend = byID[id]
            return Face(id: id, name: friend?.name, color: friend?.color, avatar: friend?.avatar,
                        look: friend.map { scene.look(of: id, color: $0.color) }, pose: friend.flatMap { $0.pose == .standing ? nil : $0.pose.rawValue })
        }
    }
}

private struct FrameInputs: Encodable {
    let center: Coordinate
    let zoom: Double
    let size: ScreenSize
    let scale: Double
    let insets: EdgeInsets
    let layers: [String]
    let baseStyle: String?
    let glow: String?
    let pins: [DrawnPin]
    let pinStyle: String?
    let card: DrawnCard?
    let footsteps: String?
}

private struct Face: Encodable {
    let id: String
    let name: String?
    let color: String?
    let avatar: String?
    let look: AvatarLook?
    /// The Actionmoji pose drawn around the face (none when standing).
    let pose: String?
}

/// A pin or group as `PinRenderer` draws it.
private struct DrawnPin: Encodable {
    let avatar: ScreenRect
    let label: ScreenRect?
    let selected: Bool
    let name: String
    let detail: String
    let faces: [Face]

    init(_ drawable: PinRenderer.Drawable, faces: [Face]) {
        avatar = drawable.avatar
        label = drawable.label
        selected = drawable.selected
        (name, detail) = drawable.text
        self.faces = faces
    }
}

/// The card as `CardLook.draw` draws it: its boxes and texts (the distance as written, not in metres), the selected
/// friend's colour and look, and the card's style.
private struct DrawnCard: Encodable {
    let boxes: [ScreenRect?]
    let cornerRadius: Double
    let texts: [String?]
    let color: String?
    let look: AvatarLook?
    let style: String

    init(_ card: SelectionCard, color: String?, look: AvatarLook?, style: String) {
        boxes = [card.rect, card.grabberRect, card.avatarRect, card.nameRect, card.detailRect, card.distanceRect, card.chatButtonRect]
        cornerRadius = card.cornerRadius
        texts = [card.name, card.detailText, card.distanceText, card.chatLabel]
        self.color = color
        self.look = look
        self.style = style
    }
}
