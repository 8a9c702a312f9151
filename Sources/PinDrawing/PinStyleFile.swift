import Foundation
import GeoCore
import MapScene
import PinLayout
import Raster

/// How friends are drawn: a cartoon head in the round badge, a cartoon figure standing on the map, or
/// initials on their colour.
public enum AvatarStyle: String, Sendable, Codable, CaseIterable {
    case badge, standing, initials
}

/// The `pins` section of the style: layout sizes and the colours the pin renderer uses.
public struct PinLook: Sendable {
    public let layout: PinStyle
    public let avatar: AvatarStyle
    public let ring: Color
    public let selectedRing: Color
    public let initials: Color
    public let initialsFontSize: Double
    public let labelBackground: Color
    public let labelInk: Color
    public let labelSecondary: Color
    public let shadow: Color
    public let shadowBlur: Double
    public let shadowOffsetY: Double

    private struct File: Decodable {
        struct Pins: Decodable {
            let layout: PinStyle
            let avatar: AvatarStyle
            let ring: String
            let selectedRing: String
            let initials: String
            let initialsFontSize: Double
            let labelBackground: String
            let labelInk: String
            let labelSecondary: String
            let shadow: String
            let shadowBlur: Double
            let shadowOffsetY: Double
        }
        let pins: Pins
    }

    /// Reads and validates the `pins` section of a style file's bytes; errors name the file and the field.
    public static func parse(_ data: Data, file: String) throws -> PinLook {
        let pins: File.Pins
        do {
            pins = try JSONDecoder().decode(File.self, from: data).pins
        } catch {
            throw DataFileError.describing(error, file: file)
        }
        let sizes: [(String, Double, ClosedRange<Double>)] = [
            ("avatarSize", pins.layout.avatarSize, 8...256), ("ringWidth", pins.layout.ringWidth, 0...16),
            ("labelFontSize", pins.layout.labelFontSize, 4...64), ("labelHeight", pins.layout.labelHeight, 4...128),
            ("labelPaddingX", pins.layout.labelPaddingX, 0...64), ("labelGap", pins.layout.labelGap, 0...64),
            ("minimumTouchTarget", pins.layout.minimumTouchTarget, 1...256), ("gridCell", pins.layout.gridCell, 4...256),
            ("groupOverlap", pins.layout.groupOverlap, 0...PinStyle.maxGroupOverlap), ("initialsFontSize", pins.initialsFontSize, 4...64),
            ("shadowBlur", pins.shadowBlur, 0...32), ("shadowOffsetY", pins.shadowOffsetY, -32...32),
        ]
        for (name, value, range) in sizes where !(value.isFinite && range.contains(value)) {
            throw DataFileError(file: file, path: "pins.\(name)", message: "\(value) is out of range: allowed \(range.lowerBound) … \(range.upperBound)")
        }
        func color(_ text: String, _ name: String) throws -> Color {
            do { return try Color(hex: text) } catch { throw DataFileError(file: file, path: "pins.\(name)", message: error.description) }
        }
        return PinLook(layout: pins.layout, avatar: pins.avatar, ring: try color(pins.ring, "ring"), selectedRing: try color(pins.selectedRing, "selectedRing"),
                       initials: try color(pins.initials, "initials"), initialsFontSize: pins.initialsFontSize,
                       labelBackground: try color(pins.labelBackground, "labelBackground"), labelInk: try color(pins.labelInk, "labelInk"),
                       labelSecondary: try color(pins.labelSecondary, "labelSecondary"), shadow: try color(pins.shadow, "shadow"),
                       shadowBlur: pins.shadowBlur, shadowOffsetY: pins.shadowOffsetY)
    }
}
