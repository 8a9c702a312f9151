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

    private struct File: Decodable {
        struct Card: Decodable {
            let metrics: CardMetrics
            let sheet, grabber, name, detail, button, buttonLabel, shadow: String
            let shadowBlur: Double
        }
        let card: Card
    }

    /// Reads the `card` section of a style file's bytes; errors name the file and the field.
    public static func parse(_ data: Data, file: String) throws -> CardLook {
        let card: File.Card
        do {
            card = try JSONDecoder().decode(File.self, from: data).card
        } catch {
            throw DataFileError.describing(error, file: file)
        }
        func color(_ text: String, _ name: String) throws -> Color {
            do { return try Color(hex: text) } catch { throw DataFileError(file: file, path: "card.\(name)", message: error.description) }
        }
        let m = card.metrics
        for (name, value) in [("cornerRadius", m.cornerRadius), ("padding", m.padding), ("avatarSize", m.avatarSize), ("nameSize", m.nameSize),
                              ("detailSize", m.detailSize), ("buttonHeight", m.buttonHeight), ("bottomMargin", m.bottomMargin),
                              ("grabberWidth", m.grabberWidth), ("grabberHeight", m.grabberHeight), ("shadowBlur", card.shadowBlur)]
        where !(value.isFinite && (0...200).contains(value)) {
            throw DataFileError(file: file, path: "card.\(name)", message: "\(value) is out of range: allowed 0 … 200")
        }
        return CardLook(metrics: m, sheet: try color(card.sheet, "sheet"), grabber: try color(card.grabber, "grabber"), name: try color(card.name, "name"),
                        detail: try color(card.detail, "detail"), button: try color(card.button, "button"),
                        buttonLabel: try color(card.buttonLabel, "buttonLabel"), shadow: try color(card.shadow, "shadow"), shadowBlur: card.shadowBlur)
    }

    /// Draws a card where its geometry says, in the app's look: a white sheet with rounded top corners and a soft
    /// shadow, the grabber, the avatar in its ring (the cartoon of `look`, or initials), the name, the detail lines
    /// and the Chat button.
    public func draw(_ card: SelectionCard, color avatarColor: Color, look: AvatarLook? = nil, font: Font, masks: ShadowMasks, scale: Double, into canvas: Canvas) {
        func px(_ rect: ScreenRect) -> Rect { Rect(x: rect.x * scale, y: rect.y * scale, width: rect.width * scale, height: rect.height * scale) }
        let sheet = px(card.rect)
        let radius = card.cornerRadius * scale
        let shape = Path.roundedRect(Rect(x: sheet.minX, y: sheet.minY, width: sheet.width, height: sheet.height + radius), radius: radius)
        canvas.drawShadow(of: shape, color: shadow, sigma: shadowBlur * scale, offset: Point(0, -2 * scale), masks: masks)
        canvas.fill(shape, paint: .solid(self.sheet))
        let grabberRect = px(card.grabberRect)
        canvas.fill(.roundedRect(grabberRect, radius: grabberRect.height / 2), paint: .solid(grabber))
        let avatar = px(card.avatarRect)
        canvas.fill(.ellipse(in: avatar), paint: .solid(self.sheet))
        if let look {
            AvatarPainter(look: look).drawBadge(in: avatar.outset(by: -3 * scale), background: avatarColor, into: canvas)
        } else {
            canvas.fill(.ellipse(in: avatar.outset(by: -3 * scale)), paint: .solid(avatarColor))
            let initials = card.name.split(separator: " ").prefix(2).compactMap(\.first).map(String.init).joined()
            text(initials, size: metrics.avatarSize * 0.36 * scale, color: .white, font: font, centredIn: avatar, into: canvas)
        }
        text(card.name, size: metrics.nameSize * scale, color: name, font: font, in: px(card.nameRect), into: canvas)
        text(card.detailText, size: metrics.detailSize * scale, color: detail, font: font, in: px(card.detailRect), into: canvas)
        if let rect = card.distanceRect, let distance = card.distanceText {
            text(distance, size: metrics.detailSize * scale, color: detail, font: font, in: px(rect), into: canvas)
        }
        let button = px(card.chatButtonRect)
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
