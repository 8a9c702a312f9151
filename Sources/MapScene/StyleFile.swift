import Foundation
import GeoCore
import HeatMap

/// The style file (`Data/styles/snapmap.json`), read and decoded once into the looks drawn from it: the base map's
/// (every section the others do not own), the glow's (`heat`), the pins' and the card's, each checked as it is
/// decoded; and its sections as text, for the tags of the answers drawn from them. Anything wrong is one
/// `DataFileError` naming the file and the field. The looks drawn above the scene are its type parameters.
public struct StyleFile<Base: Decodable & Sendable, Pins: Decodable & Sendable, Card: Decodable & Sendable>: Sendable {
    public let base: Base
    public let heat: HeatStyle
    public let pins: Pins
    public let card: Card
    public let sections: StyleSections

    /// Reads and decodes the style file at `url`.
    public init(contentsOf url: URL) throws(DataFileError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw DataFileError.describing(error, file: url.lastPathComponent) }
        try self.init(data, file: url.lastPathComponent)
    }

    /// Decodes a style file's bytes (`file` names it in errors).
    public init(_ data: Data, file: String) throws(DataFileError) {
        let looks = try DataFileError.decode(Looks.self, from: data, file: file)
        (base, heat, pins, card) = (looks.base, looks.heat, looks.pins, looks.card)
        sections = try StyleSections(data, file: file)
    }

    /// The one decoding of the file: the base map's look from the whole object, the others from their sections.
    private struct Looks: Decodable {
        let base: Base
        let heat: HeatStyle
        let pins: Pins
        let card: Card

        private enum Section: String, CodingKey {
            case heat, pins, card
        }

        init(from decoder: any Decoder) throws {
            base = try Base(from: decoder)
            let sections = try decoder.container(keyedBy: Section.self)
            heat = try sections.decode(HeatStyle.self, forKey: .heat)
            pins = try sections.decode(Pins.self, forKey: .pins)
            card = try sections.decode(Card.self, forKey: .card)
        }
    }
}
