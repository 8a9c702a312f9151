import BaseMap
import Foundation
import GeoCore
import MapScene
import PinDrawing
import PinLayout
import Raster

/// A request about a friend the viewer cannot see: unknown and hidden ids are the same error, with the same
/// message, so an answer never tells them apart.
public struct UnknownFriend: Error, CustomStringConvertible, Sendable {
    public let id: String

    public init(id: String) {
        self.id = id
    }

    public var description: String { "no visible friend or group \"\(id.prefix(40))\"" }
}

extension MapEngine {
    /// Friends as the layout sees them.
    public func subjects(_ friends: [Friend]) -> [PinSubject] {
        friends.map { PinSubject(id: $0.id, name: $0.name, coordinate: $0.coordinate, lastSeen: $0.lastSeen,
                                 snapstreak: $0.snapstreak, bestFriend: $0.bestFriend, pose: $0.pose.rawValue) }
    }

    /// The layout engine for a scale (labels are measured at the pixel size they are drawn, and keep clear of poses).
    public func pinEngine(scale: Double) -> PinLayoutEngine {
        PinLayoutEngine(style: pinLook.layout, measurer: FontMeasurer(font: labelFont, scale: scale), groupings: groupings,
                        footprints: PoseFootprint())
    }

    /// Lays out the pins of the viewer's visible friends in a viewport; a selected id that is not among them
    /// is an error.
    public func layout(_ viewport: Viewport, friends: [Friend], selected: String? = nil, now: Date,
                       previousAnchors: [String: LabelAnchor] = [:]) throws -> PinLayoutResult {
        if let selected, !friends.contains(where: { $0.id == selected }) { throw UnknownFriend(id: selected) }
        return pinEngine(scale: viewport.scale).layout(subjects: subjects(friends), viewport: viewport, selected: selected, now: now,
                                                       previousAnchors: previousAnchors)
    }

    /// Which pin, group or label a tap at `point` hits (a pose's drawing hits its pin).
    public func hit(_ point: ScreenPoint, in layout: PinLayoutResult) -> HitResult {
        PinHitTester(layout: layout, style: pinLook.layout, footprints: PoseFootprint()).hit(point)
    }

    /// The selection camera for a visible friend's id or a group id of `layout` (a group zooms to where it splits).
    public func zoom(to id: String, friends: [Friend], from viewport: Viewport, layout: PinLayoutResult,
                     cardHeight: Double? = nil) throws -> ZoomAnswer {
        let settings = scene.selection
        let camera = SelectionCamera(selectionZoom: settings.zoom, maxZoom: settings.maxZoom)
        let card = cardHeight ?? settings.cardHeight
        // The scene's card, unasked for, that does not fit is the viewport's fault: the error names its size.
        if cardHeight == nil, !SelectionCamera.cardHeightRange(for: viewport).contains(card) {
            throw BadField(field: "size", message: "\(viewport.size.width)x\(viewport.size.height) pt is too short for the selected friend's "
                               + "\(card) pt card below the status bar: at least \(card + viewport.insets.top + 1) pt high")
        }
        if let friend = friends.first(where: { $0.id == id }) {
            return try camera.zoom(toFriend: id, at: friend.coordinate, from: viewport, cardHeight: card)
        }
        guard let group = layout.group(id) else { throw UnknownFriend(id: id) }
        let members = group.members.compactMap { member in friends.first { $0.id == member }?.coordinate }
        return try camera.zoom(toGroup: id, members: members, splitZoom: group.splitZoom, from: viewport, cardHeight: card)
    }

    /// The base map's credit, in the bottom-right corner of the part of the frame the insets leave free.
    func drawCredit(_ viewport: Viewport, into canvas: Canvas) {
        baseMap.drawAttribution(scale: viewport.scale, free: viewport.freeRect.pixels(scale: viewport.scale), into: canvas)
    }

    /// What names keep clear of in a frame of `viewport` drawn by `map` (the base map when nil), in its pixels: the
    /// credit's plate (when its style draws one) and the bottom inset (the phone's own controls, a tracking sheet).
    public func reservedBoxes(_ viewport: Viewport, map: BaseMapRenderer? = nil) -> [Rect] {
        let bottom = ScreenRect(x: 0, y: viewport.size.height - viewport.insets.bottom, width: viewport.size.width, height: viewport.insets.bottom)
        let credit = (map ?? baseMap).attributionBox(scale: viewport.scale, free: viewport.freeRect.pixels(scale: viewport.scale))
        return [credit, viewport.insets.bottom > 0 ? bottom.pixels(scale: viewport.scale) : nil].compactMap { $0 }
    }

    /// The boxes of a layout's drawn avatars, their poses and labels in frame pixels: place names keep clear of them.
    func pinBoxes(_ layout: PinLayoutResult?) -> [Rect] {
        guard let layout else { return [] }
        let scale = layout.viewport.scale
        let poses = Dictionary(layout.pins.map { ($0.id, $0.pose) }, uniquingKeysWith: { first, _ in first })
        func posed(_ avatar: ScreenRect?, _ members: [String]) -> ScreenRect? {
            avatar.flatMap { PoseFootprint().extent(poses: members.map { poses[$0] ?? "standing" }, avatar: $0, scale: scale) }
        }
        let rects = layout.pins.filter { $0.visible && $0.groupId == nil }.flatMap { [$0.avatarRect, $0.labelRect, posed($0.avatarRect, [$0.id])] }
            + layout.groups.flatMap { [$0.avatarRect, $0.labelRect, posed($0.avatarRect, $0.members)] }
        return rects.compactMap { $0 }.map { $0.pixels(scale: scale) }
    }

    /// Draws a layout's pins onto a frame canvas of its viewport.
    public func drawPins(_ layout: PinLayoutResult, friends: [Friend], into canvas: Canvas) {
        let byID = Dictionary(friends.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let images = byID.compactMapValues { friend in friend.avatar.flatMap { avatars.image($0) } }
        let looks = byID.mapValues { scene.look(of: $0.id, color: $0.color) }
        PinRenderer(look: pinLook, font: labelFont, friends: byID, avatars: images, looks: looks, shadows: shadowMasks)
            .draw(layout, texts: labelTexts(layout, friends: byID), into: canvas)
    }

    /// The texts of a layout's labels, by pin or group id, at the layout's time: the name and the detail drawn after it.
    func labelTexts(_ layout: PinLayoutResult, friends byID: [String: Friend]) -> (PinLayoutResult, String) -> (name: String, detail: String) {
        let engine = pinEngine(scale: layout.viewport.scale)
        let now = layout.now
        let subjectsByID = byID.mapValues { subjects([$0])[0] }
        return { layout, id in
            if let group = layout.group(id) {
                return engine.labelText(group.members.compactMap { subjectsByID[$0] }, now: now, short: group.labelShort)
            }
            return subjectsByID[id].map { engine.labelText([$0], now: now, short: layout.pin(id)?.labelShort == true) } ?? (id, "")
        }
    }
}
