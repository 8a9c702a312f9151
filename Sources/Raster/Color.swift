/// A colour with straight (not premultiplied) 8-bit channels.
public struct Color: Hashable, Sendable, Codable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 255, g: 255, b: 255)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)

    /// Parses `#RRGGBB` or `#RRGGBBAA`.
    public init(hex: String) throws(RasterError) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else {
            throw .invalid(field: "color", reason: "expected #RRGGBB or #RRGGBBAA, got \"\(hex)\"")
        }
        let full = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(r: UInt8(full >> 24), g: UInt8(full >> 16 & 0xFF), b: UInt8(full >> 8 & 0xFF), a: UInt8(full & 0xFF))
    }

    /// The same colour with its alpha multiplied by `opacity` (0…1).
    public func withOpacity(_ opacity: Double) -> Color {
        var copy = self
        copy.a = UInt8((Double(a) * min(max(opacity, 0), 1)).rounded())
        return copy
    }

    public var description: String {
        let hex = [r, g, b, a].map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
        return "#" + hex.joined()
    }

    /// Premultiplied 16-bit channels (0…65535), the canvas's working form.
    var premultiplied16: Premultiplied16 {
        let alpha = UInt32(a) * 257
        func channel(_ value: UInt8) -> UInt32 { (UInt32(value) * 257 * alpha + 32767) / 65535 }
        return Premultiplied16(r: channel(r), g: channel(g), b: channel(b), a: alpha)
    }
}

/// Premultiplied RGBA with 16 bits a channel, held in 32-bit lanes for arithmetic.
struct Premultiplied16: Hashable, Sendable {
    var r: UInt32
    var g: UInt32
    var b: UInt32
    var a: UInt32

    static let clear = Premultiplied16(r: 0, g: 0, b: 0, a: 0)

    /// This colour scaled by a coverage of `coverage`/65535, rounded to nearest.
    @inline(__always)
    func scaled(by coverage: UInt32) -> Premultiplied16 {
        Premultiplied16(r: Blend.divide65535(r * coverage), g: Blend.divide65535(g * coverage),
                        b: Blend.divide65535(b * coverage), a: Blend.divide65535(a * coverage))
    }
}

/// Exact integer arithmetic for compositing in 16-bit premultiplied space.
enum Blend {
    /// x / 65535 rounded to nearest, exact for x ≤ 65535².
    @inline(__always)
    static func divide65535(_ x: UInt32) -> UInt32 {
        let biased = UInt64(x) + 32768
        return UInt32((biased + (biased >> 16)) >> 16)
    }

    /// x / 65535 rounded to nearest in each lane, exact for x ≤ 65535² (no lane overflows 32 bits).
    @inline(__always)
    static func divide65535(_ x: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let biased = x &+ 32768
        return (biased &+ (biased &>> 16)) &>> 16
    }

    /// A coverage in 0…1 as 0…65535.
    @inline(__always)
    static func coverage16(_ coverage: Float) -> UInt32 {
        UInt32(min(max(coverage, 0), 1) * 65535 + 0.5)
    }
}
