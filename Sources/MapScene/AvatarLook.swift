import Foundation
import GeoCore

/// How a person's cartoon avatar looks (the Bitmoji idea): skin tone, hair style and colour, eyes, mouth,
/// facial hair and the colour of their top. Fixture people carry one in the data; anyone else gets one
/// derived from their id, the same every time.
public struct AvatarLook: Hashable, Sendable, Codable {
    public enum Hair: String, Hashable, Sendable, Codable, CaseIterable { case curly, short, long, bun, buzz, wavy }
    public enum Eyes: String, Hashable, Sendable, Codable, CaseIterable { case round, happy }
    public enum Mouth: String, Hashable, Sendable, Codable, CaseIterable { case smile, grin, open }
    public enum FacialHair: String, Hashable, Sendable, Codable, CaseIterable { case none, stubble, shortBeard }

    /// `#RRGGBB` colours.
    public let skin: String
    public let hair: Hair
    public let hairColor: String
    public let eyes: Eyes
    public let mouth: Mouth
    public let facialHair: FacialHair
    public let top: String

    /// Skin tones and hair colours a derived look chooses from.
    static let skins = ["#F7D9C4", "#EBC2A0", "#D9A37A", "#C68642", "#9D6A43", "#6E4A2F"]
    static let hairColors = ["#2A1B12", "#4B3121", "#7A4B27", "#B8874E", "#E2C27C", "#161616", "#9A3B24"]

    /// A look for someone the data does not describe, picked by a hash of their id; the top takes their colour.
    public static func derived(from id: String, color: String) -> AvatarLook {
        let hash = FNV1a.hash(id.utf8)
        func pick<T>(_ items: [T], _ shift: UInt64) -> T { items[Int((hash >> shift) % UInt64(items.count))] }
        return AvatarLook(skin: pick(skins, 0), hair: pick(Hair.allCases, 8), hairColor: pick(hairColors, 16), eyes: pick(Eyes.allCases, 24),
                          mouth: pick(Mouth.allCases, 32), facialHair: pick([FacialHair.none, .none, .stubble, .shortBeard], 40), top: color)
    }

    /// Checks the colours; errors name the field under `path`.
    func validated(path: String, file: String) throws(DataFileError) -> AvatarLook {
        for (field, value) in [("skin", skin), ("hairColor", hairColor), ("top", top)] where !HexColor.isValid(value) {
            throw DataFileError(file: file, path: "\(path).\(field)", message: "must be #RRGGBB, got \"\(value.prefix(20))\"")
        }
        return self
    }
}
