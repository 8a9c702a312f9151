import Foundation
import GeoCore
import MapScene
import PinLayout
import Raster

/// Draws a layout's pins exactly where it puts them: avatars (an image, the cartoon of the friend's look, or
/// initials on their colour) in a white ring with a soft shadow (Snapchat yellow when selected) or standing on
/// the map, as the style chooses; groups as one round bubble of faces, and labels as white capsules with the name in ink
/// and the time in grey.
public struct PinRenderer {
    /// Below this many pixels across, a cartoon face is a smudge: initials are drawn instead.
    static let smallestCartoon = 24.0

    let look: PinLook
    let font: Font
    let friends: [String: Friend]
    let avatars: [String: Image]
    let looks: [String: AvatarLook]
    let shadows: ShadowMasks

    /// A renderer for one frame's pins: the friends by id, their decoded avatar images and looks by id.
    public init(look: PinLook, font: Font, friends: [String: Friend], avatars: [String: Image], looks: [String: AvatarLook], shadows: ShadowMasks) {
        self.look = look
        self.font = font
        self.friends = friends
        self.avatars = avatars
        self.looks = looks
        self.shadows = shadows
    }

    /// A drawable: one friend's or one group's pin; only the first `shownMembers` members' avatars are drawn.
    public struct Drawable {
        public let zIndex: Int
        public let avatar: ScreenRect
        public let label: ScreenRect?
        public let members: [String]
        public let selected: Bool
        public let text: (name: String, detail: String)
    }

    public static let shownMembers = 3

    /// The pins and groups of a layout that are drawn, bottom to top: everything `draw` reads of the layout.
    public static func drawables(_ layout: PinLayoutResult, texts: (PinLayoutResult, String) -> (name: String, detail: String)) -> [Drawable] {
        var drawables: [Drawable] = []
        for pin in layout.pins where pin.visible && pin.groupId == nil {
            guard let avatar = pin.avatarRect else { continue }
            drawables.append(Drawable(zIndex: pin.zIndex, avatar: avatar, label: pin.labelRect, members: [pin.id], selected: pin.selected,
                                      text: texts(layout, pin.id)))
        }
        for group in layout.groups where group.visible {
            guard let avatar = group.avatarRect else { continue }
            drawables.append(Drawable(zIndex: group.zIndex, avatar: avatar, label: group.labelRect, members: group.members,
                                      selected: group.members.contains { $0 == layout.selected }, text: texts(layout, group.id)))
        }
        return drawables.sorted { $0.zIndex < $1.zIndex }
    }

    public func draw(_ layout: PinLayoutResult, texts: (PinLayoutResult, String) -> (name: String, detail: String), into canvas: Canvas) {
        for drawable in Self.drawables(layout, texts: texts) {
            drawAvatars(drawable, scale: layout.viewport.scale, into: canvas)
            if let label = drawable.label { drawLabel(label, text: drawable.text, scale: layout.viewport.scale, into: canvas) }
        }
    }

    /// Where a group's faces sit in its bubble, as fractions of its width from the centre (x, y, diameter): two
    /// side by side, three in a triangle, and past three, three faces and "+N" in a square of four.
    private static let faceSlots: [[(x: Double, y: Double, side: Double)]] = [
        [(-0.24, 0, 0.46), (0.24, 0, 0.46)],
        [(-0.22, -0.13, 0.42), (0.22, -0.13, 0.42), (0, 0.24, 0.42)],
        [(-0.21, -0.21, 0.4), (0.21, -0.21, 0.4), (-0.21, 0.21, 0.4), (0.21, 0.21, 0.4)],
    ]

    /// One friend's avatar fills the box; a group is one round bubble holding up to three faces and "+N".
    private func drawAvatars(_ drawable: Drawable, scale: Double, into canvas: Canvas) {
        let whole = drawable.avatar.pixels(scale: scale)
        guard drawable.members.count > 1 else {
            drawAvatar(drawable.members[0], in: whole, selected: drawable.selected, scale: scale, into: canvas)
            return
        }
        canvas.drawShadow(of: .ellipse(in: whole), color: look.shadow, sigma: look.shadowBlur * scale, offset: Point(0, look.shadowOffsetY * scale),
                          masks: shadows)
        canvas.fill(.ellipse(in: whole), paint: .solid(look.ring))
        let slots = Self.faceSlots[min(drawable.members.count, Self.shownMembers + 1) - 2]
        let w = whole.width
        for (index, slot) in slots.enumerated() {
            let circle = Rect(x: whole.center.x + (slot.x - slot.side / 2) * w, y: whole.center.y + (slot.y - slot.side / 2) * w,
                              width: slot.side * w, height: slot.side * w)
            guard index < Self.shownMembers else {
                drawMore(drawable.members.count - Self.shownMembers, in: circle, into: canvas)
                continue
            }
            drawAvatar(drawable.members[index], in: circle, selected: false, scale: scale, into: canvas)
        }
    }

    /// "+N" on a grey disc: the friends of a group beyond the faces shown.
    private func drawMore(_ count: Int, in circle: Rect, into canvas: Canvas) {
        canvas.fill(.ellipse(in: circle), paint: .solid(look.labelSecondary))
        guard let text = try? font.layout("+\(count)", size: circle.height * 0.45), let ink = text.inkBounds else { return }
        canvas.drawText(text, at: Point(circle.center.x - ink.x - ink.width / 2, circle.center.y - ink.y - ink.height / 2), color: look.initials)
    }

    /// One friend's avatar in `circle`, as the style chooses (the ring and its width scale with `scale`).
    func drawAvatar(_ id: String, in circle: Rect, selected: Bool, scale: Double, into canvas: Canvas) {
        let pose = friends[id]?.pose ?? .standing
        PosePainter.drawBehind(pose, around: circle, into: canvas)
        drawFace(id, in: circle, selected: selected, scale: scale, into: canvas)
        PosePainter.drawInFront(pose, around: circle, into: canvas)
    }

    /// The avatar itself, without its pose.
    private func drawFace(_ id: String, in circle: Rect, selected: Bool, scale: Double, into canvas: Canvas) {
        if look.avatar == .standing, avatars[id] == nil, let face = looks[id], circle.width >= Self.smallestCartoon {
            AvatarPainter(look: face).drawStanding(in: circle, selected: selected ? look.selectedRing : nil, into: canvas)
            return
        }
        let ring = look.layout.ringWidth * scale * (selected ? 1.5 : 1)
        canvas.drawShadow(of: .ellipse(in: circle), color: look.shadow, sigma: look.shadowBlur * scale, offset: Point(0, look.shadowOffsetY * scale),
                          masks: shadows)
        canvas.fill(.ellipse(in: circle), paint: .solid(selected ? look.selectedRing : look.ring))
        let inner = circle.outset(by: -ring)
        if let image = avatars[id] {
            canvas.drawImage(image, in: inner, clipToCircle: true)
            return
        }
        let color = (try? Color(hex: friends[id]?.color ?? "#8A8D91")) ?? look.labelSecondary
        if look.avatar != .initials, let face = looks[id], inner.width >= Self.smallestCartoon {
            AvatarPainter(look: face).drawBadge(in: inner, background: color, into: canvas)
            return
        }
        canvas.fill(.ellipse(in: inner), paint: .solid(color))
        let initials = (friends[id]?.name ?? id).split(separator: " ").prefix(2).compactMap(\.first).map(String.init).joined()
        let size = look.initialsFontSize * scale * inner.width / (look.layout.avatarSize * scale - 2 * ring)
        guard let text = try? font.layout(initials, size: size), let ink = text.inkBounds else { return }
        canvas.drawText(text, at: Point(inner.center.x - ink.x - ink.width / 2, inner.center.y - ink.y - ink.height / 2), color: look.initials)
    }

    private func drawLabel(_ rect: ScreenRect, text: (name: String, detail: String), scale: Double, into canvas: Canvas) {
        let box = rect.pixels(scale: scale)
        let capsule = Path.roundedRect(box, radius: box.height / 2)
        canvas.drawShadow(of: capsule, color: look.shadow, sigma: look.shadowBlur * scale * 0.7, offset: Point(0, look.shadowOffsetY * scale * 0.7),
                          masks: shadows)
        canvas.fill(capsule, paint: .solid(look.labelBackground))
        let size = look.layout.labelFontSize * scale
        guard let name = try? font.layout(text.name, size: size) else { return }
        let baseline = box.center.y + (name.ascent - name.descent) / 2 - name.descent * 0.15
        let start = Point(box.minX + look.layout.labelPaddingX * scale, baseline)
        canvas.drawText(name, at: start, color: look.labelInk)
        guard !text.detail.isEmpty, let detail = try? font.layout(text.detail, size: size) else { return }
        canvas.drawText(detail, at: Point(start.x + name.advance, baseline), color: look.labelSecondary)
    }
}
