import Foundation
import GeoCore
import MapScene
import PinLayout
import Raster

/// The `card` section of the style: the selected friend's card, its sizes and colours.
public struct CardLook: Sendable {
    public let metrics: CardMetrics
    let sheet: Color
    let grabber: Color
    let name: Color
    let detail: Color
    let button: Color
    let buttonLabel: Color
    let shadow: Color
    let shadowBlur: Double
}

extension CardLook: Decodable {
    /// The `card` section as written.
    private struct Record: Decodable {
        let metrics: CardMetrics
        let sheet, grabber, name, detail, button, buttonLabel, shadow: String
        let shadowBlur: Double
    }

    /// Decodes the style's `card` section and checks it; errors name the field (`card.metrics.padding`).
    public init(from decoder: any Decoder) throws {
        let card = try Record(from: decoder)
        func color(_ text: String, _ name: String) throws -> Color {
            do { return try Color(hex: text) } catch { throw DataFileError(file: "", path: "card.\(name)", message: error.description) }
        }
        let m = card.metrics
        for (name, value) in [("metrics.cornerRadius", m.cornerRadius), ("metrics.padding", m.padding), ("metrics.avatarSize", m.avatarSize),
                              ("metrics.nameSize", m.nameSize), ("metrics.detailSize", m.detailSize), ("metrics.buttonHeight", m.buttonHeight),
                              ("metrics.bottomMargin", m.bottomMargin), ("metrics.grabberWidth", m.grabberWidth),
                              ("metrics.grabberHeight", m.grabberHeight), ("shadowBlur", card.shadowBlur)]
        where !(value.isFinite && (0...200).contains(value)) {
            throw DataFileError(file: "", path: "card.\(name)", message: "\(value) is out of range: allowed 0 … 200")
        }
        self.init(metrics: m, sheet: try color(card.sheet, "sheet"), grabber: try color(card.grabber, "grabber"), name: try color(card.name, "name"),
                  detail: try color(card.detail, "detail"), button: try color(card.button, "button"),
                  buttonLabel: try color(card.buttonLabel, "buttonLabel"), shadow: try color(card.shadow, "shadow"), shadowBlur: card.shadowBlur)
    }
}

extension CardLook {
    /// Draws a card where its geometry says, in the app's look: a white sheet with rounded top corners and a soft
    /// shadow, the grabber, the avatar in its ring (the cartoon of `look`, or initials), the name, the detail lines
    /// and the Chat button.
    public func draw(_ card: SelectionCard, color avatarColor: Color, look: AvatarLook? = nil, font: Font, masks: ShadowMasks, scale: Double, into canvas: Canvas) {
        let sheet = card.rect.pixels(scale: scale)
        let radius = card.cornerRadius * scale
        let shape = Path.roundedRect(Rect(x: sheet.minX, y: sheet.minY, width: sheet.width, height: sheet.height + radius), radius: radius)
        canvas.drawShadow(of: shape, color: shadow, sigma: shadowBlur * scale, offset: Point(0, -2 * scale), masks: masks)
        canvas.fill(shape, paint: .solid(self.sheet))
        let grabberRect = card.grabberRect.pixels(scale: scale)
        canvas.fill(.roundedRect(grabberRect, radius: grabberRect.height / 2), paint: .solid(grabber))
        let avatar = card.avatarRect.pixels(scale: scale)
        canvas.fill(.ellipse(in: avatar), paint: .solid(self.sheet))
        if let look {
            AvatarPainter(look: look).drawBadge(in: avatar.outset(by: -3 * scale), background: avatarColor, into: canvas)
        } else {
            canvas.fill(.ellipse(in: avatar.outset(by: -3 * scale)), paint: .solid(avatarColor))
            let initials = card.name.split(separator: " ").prefix(2).compactMap(\.first).map(String.init).joined()
            text(initials, size: metrics.avatarSize * 0.36 * scale, color: .white, font: font, centredIn: avatar, into: canvas)
        }
        text(card.name, size: metrics.nameSize * scale, color: name, font: font, in: card.nameRect.pixels(scale: scale), into: canvas)
        text(card.detailText, size: metrics.detailSize * scale, color: detail, font: font, in: card.detailRect.pixels(scale: scale), into: canvas)
        if let rect = card.distanceRect, let distance = card.distanceText {
            text(distance, size: metrics.detailSize * scale, color: detail, font: font, in: rect.pixels(scale: scale), into: canvas)
        }
        let button = card.chatButtonRect.pixels(scale: scale)
        canvas.fill(.roundedRect(button, radius: button.height / 2), paint: .solid(self.button))
        text(card.chatLabel, size: 17 * scale, color: buttonLabel, font: font, centredIn: button, into: canvas)
    }

    /// Text on the first line of `rect`, its baseline where the line's height puts it.
    private func text(_ string: String, size: Double, color: Color, font: Font, in rect: Rect, into canvas: Canvas) {
        guard let layout = try? font.layout(string, size: size) else { return }
        canvas.drawText(layout, at: Point(rect.minX, rect.minY + (rect.height + layout.ascent - layout.descent) / 2), color: color)
    }

    private func text(_ string: String, size: Double, color: Color, font: Font, centredIn rect: Rect, into canvas: Canvas) {
        guard let layout = try? font.layout(string, size: size), let ink = layout.inkBounds else { return }
        canvas.drawText(layout, at: Point(rect.center.x - ink.x - ink.width / 2, rect.center.y - ink.y - ink.height / 2), color: color)
    }
}
