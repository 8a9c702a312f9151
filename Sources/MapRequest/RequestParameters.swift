import Foundation
import GeoCore
import MapEngine
import MapScene
import PinLayout

/// Named request values (command-line options or URL query parameters, which share their names) read into
/// typed values with errors that name the parameter (prefixed "--" on the command line) and its range.
public struct RequestParameters: Sendable {
    public static let maxValueLength = 256

    public let values: [String: String]
    /// How names appear in messages: "--" for options, "" for query parameters.
    public let prefix: String

    public init(_ values: [String: String], prefix: String = "") {
        self.values = values
        self.prefix = prefix
    }

    private func bad(_ name: String, _ message: String) -> BadField { BadField(field: prefix + name, message: message) }

    public func string(_ name: String) throws(BadField) -> String? {
        guard let value = values[name] else { return nil }
        guard value.utf8.count <= Self.maxValueLength else { throw bad(name, "longer than \(Self.maxValueLength) bytes") }
        return value
    }

    public func required(_ name: String) throws(BadField) -> String {
        guard let value = try string(name) else { throw BadField.required(prefix + name) }
        return value
    }

    /// A finite number within `range`.
    public func number(_ name: String, in range: ClosedRange<Double>) throws(BadField) -> Double? {
        guard let text = try string(name) else { return nil }
        guard let value = Double(text), value.isFinite else { throw bad(name, "must be a finite number, got \"\(text)\"") }
        guard range.contains(value) else { throw BadField.outOfRange(prefix + name, given: text, allowed: range) }
        return value
    }

    /// A value parsed by GeoCore, its errors renamed to the parameter.
    private func parsed<T>(_ name: String, _ parse: (String) throws(BadField) -> T) throws(BadField) -> T? {
        guard let text = try string(name) else { return nil }
        do { return try parse(text) } catch { throw renamed(error, to: name) }
    }

    /// GeoCore's error under the parameter `name` (its message names a field inside the parameter, when it is one).
    private func renamed(_ error: BadField, to name: String) -> BadField {
        bad(name, error.field == name ? error.message : error.description)
    }

    /// center, zoom, size and scale over the scene's viewport (whose insets stay when the size does).
    public func viewport(scene: Scene) throws(BadField) -> Viewport {
        let base = scene.viewport
        let center = try parsed("center") { text throws(BadField) in try Coordinate(parsing: text, field: "center") } ?? base.center
        let size = try parsed("size") { text throws(BadField) in try ScreenSize(parsing: text, field: "size") } ?? base.size
        let zoom = try number("zoom", in: Viewport.zoomRange) ?? base.zoom
        let scale = try number("scale", in: Viewport.scaleRange) ?? base.scale
        do {
            return try Viewport(center: center, zoom: zoom, size: size, scale: scale, insets: size == base.size ? base.insets : .zero)
        } catch {
            // The parameter holding the field (`size` for `size.width`): the name a caller can change.
            let parameter = String(error.field.prefix { $0 != "." })
            throw renamed(error, to: parameter)
        }
    }

    /// `clock`: the operator's clock for one command, an ISO 8601 time or "scene" for the fixture's capture
    /// time; `fallback` when absent. Never read from an HTTP request: the server's clock is the server's.
    public func clock(scene: Scene, default fallback: Date, name: String = "clock") throws(BadField) -> Date {
        guard let text = try string(name) else { return fallback }
        if text == "scene" { return scene.capturedAt }
        guard let date = ISO8601Time.date(from: text) else {
            throw bad(name, "must be an ISO 8601 time such as \(ISO8601Time.example), or \"scene\"; got \"\(text.prefix(40))\"")
        }
        return date
    }

    /// `layers`: a comma-separated list of base, heat, pins and footsteps (the viewer's own, where there is a viewer).
    public func layers(default fallback: Set<MapLayer>) throws(BadField) -> Set<MapLayer> {
        guard let text = try string("layers") else { return fallback }
        let allowed = MapLayer.allCases.map(\.rawValue).joined(separator: ", ")
        var layers = Set<MapLayer>()
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let layer = MapLayer(rawValue: name) else { throw bad("layers", "unknown layer \"\(name)\"; allowed: \(allowed)") }
            layers.insert(layer)
        }
        guard !layers.isEmpty else { throw bad("layers", "needs at least one of \(allowed)") }
        return layers
    }

    /// How far outside the viewport a tap may be, in viewport sizes.
    public static let tapReach = 4.0

    /// `X,Y` in points, within `tapReach` viewport sizes of the viewport.
    public func point(_ name: String, in size: ScreenSize) throws(BadField) -> ScreenPoint {
        let text = try required(name)
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
            throw bad(name, "must be X,Y in points, got \"\(text.prefix(40))\"")
        }
        let xs = -Self.tapReach * size.width...(1 + Self.tapReach) * size.width
        let ys = -Self.tapReach * size.height...(1 + Self.tapReach) * size.height
        guard xs.contains(x), ys.contains(y) else {
            throw bad(name, "\(x),\(y) is out of range: allowed X \(xs.lowerBound) … \(xs.upperBound), Y \(ys.lowerBound) … \(ys.upperBound)")
        }
        return ScreenPoint(x: x, y: y)
    }

    /// `selected`: one of the viewer's visible friends (an unknown and a hidden id are the same error).
    public func selected(among friends: [Friend]) throws(BadField) -> String? {
        guard let id = try string("selected") else { return nil }
        guard friends.contains(where: { $0.id == id }) else { throw bad("selected", UnknownFriend(id: id).description) }
        return id
    }
}
