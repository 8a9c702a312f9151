import Foundation
import GeoCore
import Testing
@testable import PinLayout
@testable import MapEngine
@testable import MapScene
@testable import MapServer

/// The layout answer's own writer against the generic encoder (itself checked against Foundation's,
/// `CompactJSONTests`): the same bytes for layouts with and without groups, cards, selections and insets.
@Suite("Layout JSON")
struct LayoutJSONTests {
    static let engine = Result {
        try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data")))
    }

    /// The scene's layouts over several zooms, insets, scales and selections, and its friends' selection cards.
    static func layouts() throws -> [PinLayoutResult] {
        let engine = try engine.get()
        let scene = engine.scene
        let friends = scene.friends
        var layouts: [PinLayoutResult] = []
        for (index, zoom) in [11.0, 13.5, 15, 16.25, 18].enumerated() {
            let insets = index.isMultiple(of: 2) ? EdgeInsets.zero : EdgeInsets(top: 47, left: 0, bottom: 180.5, right: 12)
            let viewport = try Viewport(center: scene.viewport.center, zoom: zoom, size: scene.viewport.size, scale: Double(1 + index % 3),
                                        insets: insets)
            let selected = friends[index % friends.count].id
            layouts.append(try engine.layout(viewport, friends: friends, now: scene.capturedAt))
            layouts.append(try engine.layout(viewport, friends: friends, selected: selected, now: scene.capturedAt.addingTimeInterval(Double(index) * 3700)))
            layouts.append(try engine.selectionLayout(viewport, friends: friends, selected: selected, now: scene.capturedAt,
                                                      viewer: index.isMultiple(of: 2) ? scene.viewport.center : nil).layout)
        }
        return layouts + layouts.map(flipped)
    }

    /// The layout with every optional field of its pins and groups turned the other way (nil or set), and texts
    /// that need escaping: shapes the scene's own layouts do not reach.
    static func flipped(_ layout: PinLayoutResult) -> PinLayoutResult {
        let rect = ScreenRect(x: -0.5, y: 1e-7, width: 1e16, height: 3)
        let odd = "\"Zoë\" \\ /\n\u{1}\u{2028}😀"
        let pins = layout.pins.enumerated().map { index, pin in
            LaidOutPin(id: pin.id, name: odd, labelText: pin.labelText, coordinate: pin.coordinate, screenPoint: pin.screenPoint, visible: !pin.visible,
                       avatarRect: pin.avatarRect == nil ? rect : nil, labelRect: pin.labelRect == nil ? rect : nil,
                       anchor: pin.anchor == nil && index.isMultiple(of: 2) ? .aboveToRight : nil, labelShort: !pin.labelShort, labelHidden: pin.labelHidden == nil ? odd : nil,
                       hidden: pin.hidden == nil ? "covered" : nil, groupId: pin.groupId == nil ? "g" : nil, zIndex: -pin.zIndex, selected: !pin.selected,
                       pose: pin.pose)
        }
        let groups = layout.groups.map { group in
            LaidOutGroup(id: group.id, members: group.members + [odd], labelText: group.labelText, coordinate: group.coordinate,
                         screenPoint: group.screenPoint, visible: !group.visible, avatarRect: group.avatarRect == nil ? rect : nil,
                         labelRect: group.labelRect == nil ? rect : nil, anchor: group.anchor == nil ? .belowLeft : nil, labelShort: !group.labelShort,
                         labelHidden: group.labelHidden == nil ? odd : nil, zIndex: group.zIndex + 1, splitZoom: group.splitZoom == nil ? 17 : nil)
        }
        // A selection's card goes: a layout with a selection and no card.
        return PinLayoutResult(viewport: layout.viewport, now: layout.now.addingTimeInterval(0.25), selected: layout.selected == nil ? odd : nil,
                               pins: pins, groups: groups)
    }

    @Test func writesTheBytesTheGenericEncoderWrites() throws {
        let layouts = try Self.layouts()
        for layout in layouts {
            let ours = try LayoutJSON.encode(layout)
            let reference = try CompactJSONEncoder.encode(layout)
            #expect(ours == reference, "\(String(decoding: ours.prefix(400), as: UTF8.self))\nvs\n\(String(decoding: reference.prefix(400), as: UTF8.self))")
        }
        // The layouts reach every optional field both ways, so each branch of the writer was compared.
        let pins = layouts.flatMap(\.pins)
        let groups = layouts.flatMap(\.groups)
        let cards = layouts.compactMap(\.card)
        #expect(!groups.isEmpty && groups.contains { $0.splitZoom == nil } && groups.contains { $0.splitZoom != nil })
        #expect(pins.contains { $0.groupId != nil } && pins.contains { $0.hidden != nil } && pins.contains { $0.labelHidden != nil })
        #expect(pins.contains { $0.anchor == nil && $0.avatarRect != nil } && pins.contains { $0.anchor != nil } && pins.contains { $0.avatarRect == nil })
        #expect(cards.contains { $0.distanceMeters != nil } && cards.contains { $0.distanceMeters == nil })
        #expect(layouts.contains { $0.selected == nil } && layouts.contains { $0.selected != nil })
    }
}
