import Foundation
import GeoCore

/// The style file's top-level sections as canonical JSON (keys sorted, the file's layout gone), gathered by the
/// answers that read them, so that an answer's ETag covers the sections it is drawn from and no other. The glow,
/// the pins, the card and the Footsteps tint each read their own section (`heat`, `pins`, `card`, `footsteps`); the base map (raster tiles, a frame's
/// base layer) reads every other section, so a section added later is covered by default; vector tiles read those
/// less the ones they carry nothing of (the water's and land's colours, the credit, the style's name). A change
/// inside a section renews the tag of every answer that reads the section, even where its bytes do not show it.
public struct StyleSections: Sendable {
    /// What raster tiles and a frame's base layer read: every section but `heat`, `pins`, `card` and `footsteps`.
    public let baseMap: String
    /// What vector tiles read: the base map's sections less `water`, `land`, `attribution` and `name`.
    public let vectorTiles: String
    /// The glow's section.
    public let heat: String
    /// The pins' section.
    public let pins: String
    /// The selected friend's card's section.
    public let card: String
    /// The Footsteps tint's section (read by a person's own frames with the footsteps layer).
    public let footsteps: String

    /// The sections with a reader of their own.
    static let owned: Set<String> = ["heat", "pins", "card", "footsteps"]
    /// Sections of the base map that no vector tile carries anything of.
    static let notInVectorTiles: Set<String> = ["water", "land", "attribution", "name"]

    /// Reads the sections of a style file's bytes (a file that is not a JSON object is an error naming it).
    public init(_ data: Data, file: String) throws(DataFileError) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DataFileError(file: file, path: "", message: "the style is not a JSON object")
        }
        func text(_ keep: (String) -> Bool) throws(DataFileError) -> String {
            guard let text = try? JSONSerialization.data(withJSONObject: object.filter { keep($0.key) }, options: [.sortedKeys]) else {
                throw DataFileError(file: file, path: "", message: "the style's sections cannot be written as JSON")
            }
            return String(decoding: text, as: UTF8.self)
        }
        baseMap = try text { !Self.owned.contains($0) }
        vectorTiles = try text { !Self.owned.contains($0) && !Self.notInVectorTiles.contains($0) }
        heat = try text { $0 == "heat" }
        pins = try text { $0 == "pins" }
        card = try text { $0 == "card" }
        footsteps = try text { $0 == "footsteps" }
    }
}
