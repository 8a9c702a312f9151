import Foundation
import GeoCore
import PinLayout

/// The layout answer's JSON written straight into bytes, for its fixed shape: the same bytes `CompactJSONEncoder`
/// makes of a `PinLayoutResult` (keys sorted, nil fields left out), without building a tree of the document first.
enum LayoutJSON {
    static func encode(_ layout: PinLayoutResult) throws -> [UInt8] {
        var writer = Writer()
        writer.output.reserveCapacity(256 + 640 * (layout.pins.count + layout.groups.count))
        try writer.layout(layout)
        return writer.output
    }

    struct Writer {
        var output: [UInt8] = []
        /// Where a number is, for the error a NaN or infinity makes (the keys leading to it, as `CompactJSONEncoder` names them).
        private var path: [String] = []
        /// Whether the object being written has a field already, so the next key needs a comma before it.
        private var hasField = false

        mutating func layout(_ layout: PinLayoutResult) throws {
            open()
            if let card = layout.card { try field("card") { try $0.card(card) } }
            try field("groups") { writer in
                try writer.array(layout.groups) { try $0.group($1) }
            }
            key("now")
            CompactJSONEncoder.writeString(layout.now.ISO8601Format(), into: &output)
            try field("pins") { writer in try writer.array(layout.pins) { try $0.pin($1) } }
            if let selected = layout.selected { string("selected", selected) }
            try field("viewport") { try $0.viewport(layout.viewport) }
            output.append(UInt8(ascii: "}"))
        }

        mutating func pin(_ pin: LaidOutPin) throws {
            open()
            if let anchor = pin.anchor { string("anchor", anchor.rawValue) }
            if let rect = pin.avatarRect { try field("avatarRect") { try $0.rect(rect) } }
            try field("coordinate") { try $0.coordinate(pin.coordinate) }
            if let groupId = pin.groupId { string("groupId", groupId) }
            if let hidden = pin.hidden { string("hidden", hidden) }
            string("id", pin.id)
            if let labelHidden = pin.labelHidden { string("labelHidden", labelHidden) }
            if let rect = pin.labelRect { try field("labelRect") { try $0.rect(rect) } }
            bool("labelShort", pin.labelShort)
            string("labelText", pin.labelText)
            string("name", pin.name)
            string("pose", pin.pose)
            try field("screenPoint") { try $0.point(pin.screenPoint) }
            bool("selected", pin.selected)
            bool("visible", pin.visible)
            integer("zIndex", pin.zIndex)
            output.append(UInt8(ascii: "}"))
        }

        mutating func group(_ group: LaidOutGroup) throws {
            open()
            if let anchor = group.anchor { string("anchor", anchor.rawValue) }
            if let rect = group.avatarRect { try field("avatarRect") { try $0.rect(rect) } }
            try field("coordinate") { try $0.coordinate(group.coordinate) }
            string("id", group.id)
            if let labelHidden = group.labelHidden { string("labelHidden", labelHidden) }
            if let rect = group.labelRect { try field("labelRect") { try $0.rect(rect) } }
            bool("labelShort", group.labelShort)
            string("labelText", group.labelText)
            key("members")
            output.append(UInt8(ascii: "["))
            for (index, member) in group.members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                CompactJSONEncoder.writeString(member, into: &output)
            }
            output.append(UInt8(ascii: "]"))
            try field("screenPoint") { try $0.point(group.screenPoint) }
            if let splitZoom = group.splitZoom { integer("splitZoom", splitZoom) }
            bool("visible", group.visible)
            integer("zIndex", group.zIndex)
            output.append(UInt8(ascii: "}"))
        }

        mutating func card(_ card: SelectionCard) throws {
            open()
            try field("avatarRect") { try $0.rect(card.avatarRect) }
            try field("chatButtonRect") { try $0.rect(card.chatButtonRect) }
            string("chatLabel", card.chatLabel)
            try number("cornerRadius", card.cornerRadius)
            string("deepLink", card.deepLink)
            try field("detailRect") { try $0.rect(card.detailRect) }
            if let distance = card.distanceMeters { try number("distanceMeters", distance) }
            if let rect = card.distanceRect { try field("distanceRect") { try $0.rect(rect) } }
            string("friend", card.friend)
            try field("grabberRect") { try $0.rect(card.grabberRect) }
            string("name", card.name)
            try field("nameRect") { try $0.rect(card.nameRect) }
            string("place", card.place)
            try field("rect") { try $0.rect(card.rect) }
            string("seen", card.seen)
            output.append(UInt8(ascii: "}"))
        }

        mutating func viewport(_ viewport: Viewport) throws {
            open()
            try field("center") { try $0.coordinate(viewport.center) }
            try field("insets") { writer in
                let insets = viewport.insets
                try writer.numbers("bottom", insets.bottom, "left", insets.left, "right", insets.right, "top", insets.top)
            }
            try number("scale", viewport.scale)
            try field("size") { try $0.numbers("height", viewport.size.height, "width", viewport.size.width) }
            try number("zoom", viewport.zoom)
            output.append(UInt8(ascii: "}"))
        }

        mutating func coordinate(_ coordinate: Coordinate) throws { try numbers("lat", coordinate.lat, "lon", coordinate.lon) }
        mutating func point(_ point: ScreenPoint) throws { try numbers("x", point.x, "y", point.y) }
        mutating func rect(_ rect: ScreenRect) throws { try numbers("height", rect.height, "width", rect.width, "x", rect.x, "y", rect.y) }

        /// An object of two numbers, its keys given in sorted order.
        mutating func numbers(_ first: String, _ one: Double, _ second: String, _ two: Double) throws {
            open()
            try number(first, one)
            try number(second, two)
            output.append(UInt8(ascii: "}"))
        }

        /// An object of four numbers, its keys given in sorted order.
        mutating func numbers(_ first: String, _ one: Double, _ second: String, _ two: Double, _ third: String, _ three: Double,
                              _ fourth: String, _ four: Double) throws {
            open()
            try number(first, one)
            try number(second, two)
            try number(third, three)
            try number(fourth, four)
            output.append(UInt8(ascii: "}"))
        }

        mutating func array<Element>(_ elements: [Element], _ write: (inout Writer, Element) throws -> Void) throws {
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try write(&self, element)
            }
            output.append(UInt8(ascii: "]"))
        }

        /// Starts an object: its first key needs no comma.
        mutating func open() {
            output.append(UInt8(ascii: "{"))
            hasField = false
        }

        mutating func key(_ name: String) {
            if hasField { output.append(UInt8(ascii: ",")) }
            hasField = true
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: name.utf8)
            output.append(UInt8(ascii: "\""))
            output.append(UInt8(ascii: ":"))
        }

        mutating func field(_ name: String, _ write: (inout Writer) throws -> Void) throws {
            key(name)
            path.append(name)
            try write(&self)
            path.removeLast()
        }

        mutating func string(_ name: String, _ value: String) {
            key(name)
            CompactJSONEncoder.writeString(value, into: &output)
        }

        mutating func bool(_ name: String, _ value: Bool) {
            key(name)
            output.append(contentsOf: (value ? "true" : "false").utf8)
        }

        mutating func integer(_ name: String, _ value: Int) {
            key(name)
            output.append(contentsOf: String(value).utf8)
        }

        mutating func number(_ name: String, _ value: Double) throws {
            key(name)
            guard value.isFinite else { throw CompactJSONEncoder.NotFinite(path: (path + [name]).joined(separator: ".")) }
            output.append(contentsOf: (value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)).utf8)
        }
    }
}
