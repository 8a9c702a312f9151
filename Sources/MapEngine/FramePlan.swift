import BaseMap
import Foundation
import GeoCore
import MapScene
import PinLayout
import Raster

/// The stages of a frame, bottom to top: the one drawing order of whole, banded, selected and fly-to frames.
enum FrameStage: Int, Comparable, CaseIterable, Sendable {
    /// The base map and the glow over it, drawn in each band's own coordinates.
    case base
    /// Place names, clear of the pins' boxes.
    case names
    case pins
    /// The base map's credit, in the corner the insets leave free.
    case credit
    /// The selected friend's card, over everything.
    case card

    static func < (a: FrameStage, b: FrameStage) -> Bool { a.rawValue < b.rawValue }
}

/// The selected friend's card as a frame draws it: where it is, and the friend's colour and cartoon.
struct CardInk: Sendable {
    let card: SelectionCard
    let color: Color
    let face: AvatarLook?
}

/// Everything a frame draws, decided before any pixel is: its view, the layers under the pins, the place names
/// and the boxes they keep clear of, the boxes every name and station mark keeps clear of, the pins' layout and
/// friends, the card, the time the glow is drawn at, and the pieces of street the footsteps layer tints.
struct FramePlan: Sendable {
    let viewport: Viewport
    let view: MapView
    /// The layers under the pins (base, heat).
    let layers: Set<MapLayer>
    let names: [PlaceName]
    let avoiding: [Rect]
    /// The credit's plate and the bottom inset (`reservedBoxes`), among `avoiding` too.
    let reserved: [Rect]
    let layout: PinLayoutResult?
    let friends: [Friend]
    var card: CardInk?
    let now: Date
    let visited: [StreetPiece]
}

extension MapEngine {
    /// The plan of a frame of `viewport` with `layers` (pins drawn from `layout` when it is given), its card from
    /// `card`; `names` are the place names when already known (a shared layer's); `places` the viewer's Footsteps.
    func plan(_ viewport: Viewport, layers: Set<MapLayer>, layout: PinLayoutResult?, friends: [Friend], card: CardInk?, now: Date,
              names: [PlaceName]? = nil, places: [MercatorPoint] = []) -> FramePlan {
        let view = MapView(viewport: viewport)
        let under = layers.subtracting([.pins])
        let reserved = reservedBoxes(viewport)
        return FramePlan(viewport: viewport, view: view, layers: under,
                         names: under.contains(.base) ? names ?? baseMap.placeNames(for: view) : [],
                         avoiding: pinBoxes(layout) + reserved, reserved: reserved, layout: layout, friends: friends, card: card, now: now,
                         visited: visitedPieces(view, layers: under, places: places))
    }

    /// The card of `layout` (when it has one) as drawn for `selected` among `friends`.
    func cardInk(_ layout: PinLayoutResult?, selected: String?, friends: [Friend]) -> CardInk? {
        layout?.card.map { CardInk(card: $0, color: cardColor(of: selected, among: friends), face: cardFace(of: selected, among: friends)) }
    }

    /// The card's avatar colour: the selected friend's, grey when unknown (as `renderSelectedFrame` draws it).
    func cardColor(of selected: String?, among friends: [Friend]) -> Color {
        (try? Color(hex: friends.first { $0.id == selected }?.color ?? "#8A8D91")) ?? .black
    }

    /// The card's cartoon: the selected friend's look, unless the style draws initials.
    func cardFace(of selected: String?, among friends: [Friend]) -> AvatarLook? {
        guard pinLook.avatar != .initials, let friend = friends.first(where: { $0.id == selected }) else { return nil }
        return scene.look(of: friend.id, color: friend.color)
    }

    /// Draws the stages of `plan` in `stages` over `canvas`, in `FrameStage` order. `band` is the part of the frame
    /// the canvas holds and `top` the frame row it starts at: the base stage draws in the band's coordinates on a
    /// fresh canvas, every later stage in the frame's.
    func draw(_ plan: FramePlan, _ stages: ClosedRange<FrameStage>, into canvas: Canvas, band: MapView? = nil, top: Int = 0) throws {
        for stage in FrameStage.allCases where stages.contains(stage) {
            switch stage {
            case .base:
                let part = band ?? plan.view
                if plan.layers.contains(.base) { baseMap.draw(into: canvas, view: part, frame: plan.view, visited: plan.visited, reserved: plan.reserved) }
                if plan.layers.contains(.heat) { try glow.draw(part, at: plan.now, into: canvas) }
                canvas.originY = top
            case .names:
                if !plan.names.isEmpty { baseMap.drawPlaceNames(plan.names, of: plan.view, avoiding: plan.avoiding, into: canvas) }
            case .pins:
                if let layout = plan.layout { drawPins(layout, friends: plan.friends, into: canvas) }
            case .credit:
                if plan.layers.contains(.base) { drawCredit(plan.viewport, into: canvas) }
            case .card:
                if let ink = plan.card {
                    cardLook.draw(ink.card, color: ink.color, look: ink.face, font: labelFont, masks: shadowMasks, scale: plan.viewport.scale,
                                  into: canvas)
                }
            }
        }
    }

    /// A band of the plan's frame (starting at frame row `top`) drawn from its base through `last`.
    func drawBand(_ plan: FramePlan, _ band: MapView, top: Int, through last: FrameStage) throws -> Canvas {
        let canvas = try Canvas(width: band.width, height: band.height, background: plan.layers.contains(.base) ? baseMap.style.water : .clear)
        try draw(plan, .base...last, into: canvas, band: band, top: top)
        return canvas
    }

    /// The plan's frame from its base through `last`, one canvas drawn as bands of `bandHeight` rows in parallel.
    func drawInBands(_ plan: FramePlan, through last: FrameStage) throws -> Canvas {
        let (bands, tops) = Self.bands(of: plan.view)
        return try Canvas.stacking(bands: bands.count) { try self.drawBand(plan, bands[$0], top: tops[$0], through: last) }
    }

    /// A frame's bands of about `bandHeight` rows (whole bands of its PNG encoding), and the frame row each starts at.
    static func bands(of view: MapView) -> (bands: [MapView], tops: [Int]) {
        let rows = PNGCodec.drawingBands(width: view.width, height: view.height, near: bandHeight)
        return (rows.map { view.band(rows: $0) }, rows.map(\.lowerBound))
    }
}
