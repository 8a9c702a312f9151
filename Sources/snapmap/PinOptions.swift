import Foundation
import GeoCore
import MapEngine

/// The options of commands that lay out pins: the selected friend and the moment label times count from.
enum PinOptions {
    static let specs: [OptionSpec] = [
        .value("selected", "ID", "the selected friend's id (drawn first, with the yellow ring)"),
        .value("now", "ISO8601|scene", "the time labels count from (default: the real clock; \"scene\": the fixture's capture time)"),
    ]

    /// `--now`: an ISO 8601 time, `scene` for the scene's capture time, or the real clock by default.
    static func now(_ options: ParsedOptions, scene: Scene) throws -> Date {
        guard let text = options.value("now") else { return Date() }
        if text == "scene" { return scene.capturedAt }
        guard let date = ISO8601DateFormatter().date(from: text) else {
            throw UsageError(description: "--now must be an ISO 8601 time such as 2026-11-29T18:00:00Z, or \"scene\"; got \"\(text)\"")
        }
        return date
    }

    /// `X,Y` in points.
    static func point(_ text: String, field: String) throws -> ScreenPoint {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
            throw UsageError(description: "\(field) must be X,Y in points, got \"\(text)\"")
        }
        return ScreenPoint(x: x, y: y)
    }
}
