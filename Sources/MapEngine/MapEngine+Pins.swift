import Foundation
import GeoCore
import PinLayout
import Raster

/// A request about a friend the scene does not have (or who is in Ghost Mode, which is the same thing).
public struct UnknownFriend: Error, CustomStringConvertible, Sendable {
    public let id: String
    public let known: [String]

    public init(id: String, known: [String]) {
        self.id = id
        self.known = known
    }

    public var description: String { "unknown friend or group \"\(id)\"; allowed: \(known.joined(separator: ", "))" }
}

extension MapEngine {
    /// The visible friends as the layout sees them.
    public var subjects: [PinSubject] {
        scene.friends.map { PinSubject(id: $0.id, name: $0.name, coordinate: $0.coordinate, lastSeen: $0.lastSeen,
                                       snapstreak: $0.snapstreak, bestFriend: $0.bestFriend) }
    }

    /// The layout engine for a scale (labels are measured at the pixel size they are drawn).
    public func pinEngine(scale: Double) -> PinLayoutEngine {
        PinLayoutEngine(style: pinLook.layout, measurer: FontMeasurer(font: labelFont, scale: scale))
    }

    /// Lays out the pins of a viewport; an unknown selected id is an error.
    public func layout(_ viewport: Viewport, selected: String? = nil, now: Date,
                       previousAnchors: [String: LabelAnchor] = [:]) throws -> PinLayoutResult {
        if let selected, scene.friend(id: selected) == nil { throw UnknownFriend(id: selected, known: scene.friends.map(\.id)) }
        return pinEngine(scale: viewport.scale).layout(subjects: subjects, viewport: viewport, selected: selected, now: now,
                                                       previousAnchors: previousAnchors)
    }

    /// Which pin, group or label a tap at `point` hits.
    public func hit(_ point: ScreenPoint, in layout: PinLayoutResult) -> HitResult {
        PinHitTester(layout: layout, style: pinLook.layout).hit(point)
    }

    /// The selection camera for a friend id or a group id of `layout` (groups are fitted with padding).
    public func zoom(to id: String, from viewport: Viewport, layout: PinLayoutResult, cardHeight: Double? = nil) throws -> ZoomAnswer {
        let settings = scene.selection
        let camera = SelectionCamera(selectionZoom: settings.zoom, maxZoom: settings.maxZoom, groupPadding: settings.groupPadding)
        let card = cardHeight ?? settings.cardHeight
        if let friend = scene.friend(id: id) {
            return try camera.zoom(toFriend: id, at: friend.coordinate, from: viewport, cardHeight: card)
        }
        guard let group = layout.group(id) else {
            throw UnknownFriend(id: id, known: scene.friends.map(\.id) + layout.groups.map(\.id))
        }
        return try camera.zoom(toGroup: id, members: group.members.compactMap { scene.friend(id: $0)?.coordinate }, from: viewport, cardHeight: card)
    }

    /// Draws a layout's pins onto a frame canvas of its viewport.
    public func drawPins(_ layout: PinLayoutResult, into canvas: Canvas) {
        let engine = pinEngine(scale: layout.viewport.scale)
        let now = layout.now
        let byID = Dictionary(uniqueKeysWithValues: subjects.map { ($0.id, $0) })
        let friends = Dictionary(uniqueKeysWithValues: scene.friends.map { ($0.id, $0) })
        PinRenderer(look: pinLook, font: labelFont, friends: friends, avatars: avatars).draw(layout, texts: { layout, id in
            if let group = layout.group(id) { return engine.labelText(group.members.compactMap { byID[$0] }, now: now) }
            return byID[id].map { engine.labelText([$0], now: now) } ?? (id, "")
        }, into: canvas)
    }

    /// Decodes the avatar images the fixture names (PNG files relative to the data directory).
    static func loadAvatars(_ friends: [Friend], dataDirectory: URL) throws -> [String: Image] {
        var images: [String: Image] = [:]
        for friend in friends {
            guard let file = friend.avatar else { continue }
            let url = dataDirectory.appendingPathComponent(file)
            guard let data = try? Data(contentsOf: url) else {
                throw FixtureError(file: SceneLoader.friendsFile, path: "friends.\(friend.id).avatar", message: "cannot read \(url.path)")
            }
            images[friend.id] = try PNGCodec.decode([UInt8](data))
        }
        return images
    }
}
