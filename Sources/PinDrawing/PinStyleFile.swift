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
}

extension PinLook: Decodable {
    /// The `pins` section as written.
    private struct Record: Decodable {
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

    /// Decodes the style's `pins` section and checks it; errors name the field (`pins.layout.groupOverlap`).
    public init(from decoder: any Decoder) throws {
        let pins = try Record(from: decoder)
        let sizes: [(String, Double, ClosedRange<Double>)] = [
            ("layout.avatarSize", pins.layout.avatarSize, 8...256), ("layout.ringWidth", pins.layout.ringWidth, 0...16),
            ("layout.labelFontSize", pins.layout.labelFontSize, 4...64), ("layout.labelHeight", pins.layout.labelHeight, 4...128),
            ("layout.labelPaddingX", pins.layout.labelPaddingX, 0...64), ("layout.labelGap", pins.layout.labelGap, 0...64),
            ("layout.minimumTouchTarget", pins.layout.minimumTouchTarget, 1...256), ("layout.gridCell", pins.layout.gridCell, 4...256),
            ("layout.groupOverlap", pins.layout.groupOverlap, 0...PinStyle.maxGroupOverlap), ("initialsFontSize", pins.initialsFontSize, 4...64),
            ("shadowBlur", pins.shadowBlur, 0...32), ("shadowOffsetY", pins.shadowOffsetY, -32...32),
        ]
        for (name, value, range) in sizes where !(value.isFinite && range.contains(value)) {
            throw DataFileError(file: "", path: "pins.\(name)", message: "\(value) is out of range: allowed \(range.lowerBound) … \(range.upperBound)")
        }
        func color(_ text: String, _ name: String) throws -> Color {
            do { return try Color(hex: text) } catch { throw DataFileError(file: "", path: "pins.\(name)", message: error.description) }
        }
        self.init(layout: pins.layout, avatar: pins.avatar, ring: try color(pins.ring, "ring"), selectedRing: try color(pins.selectedRing, "selectedRing"),
                  initials: try color(pins.initials, "initials"), initialsFontSize: pins.initialsFontSize,
                  labelBackground: try color(pins.labelBackground, "labelBackground"), labelInk: try color(pins.labelInk, "labelInk"),
                  labelSecondary: try color(pins.labelSecondary, "labelSecondary"), shadow: try color(pins.shadow, "shadow"),
                  shadowBlur: pins.shadowBlur, shadowOffsetY: pins.shadowOffsetY)
    }
}
