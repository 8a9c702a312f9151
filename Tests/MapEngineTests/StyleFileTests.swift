import Foundation
import GeoCore
import Raster
import Testing
@testable import MapEngine

/// The style file is read by one decoding into `EngineStyle`: a bad value in any section, the base map's included,
/// is one `DataFileError` naming the file and the field, and a good file gives each section's look.
@Suite("The style file, decoded once")
struct StyleFileTests {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/styles/snapmap.json")

    /// The committed style's text with the value at `path` (dotted; a number is an array index) replaced by the
    /// JSON `value`.
    static func styleText(setting path: String, to value: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: source))
        let new = try JSONSerialization.jsonObject(with: Data(value.utf8), options: [.fragmentsAllowed])
        func replaced(_ node: Any, _ path: ArraySlice<Substring>) -> Any {
            guard let step = path.first else { return new }
            if let index = Int(step), var array = node as? [Any] {
                array[index] = replaced(array[index], path.dropFirst())
                return array
            }
            guard var dictionary = node as? [String: Any] else { return node }
            dictionary[String(step)] = replaced(dictionary[String(step)] as Any, path.dropFirst())
            return dictionary
        }
        let edited = replaced(object, path.split(separator: ".")[...])
        return String(decoding: try JSONSerialization.data(withJSONObject: edited, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func theCommittedStyleGivesEverySectionsLook() throws {
        let style = try EngineStyle(contentsOf: Self.source)
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.source)) as? [String: Any])
        let heat = try #require(raw["heat"] as? [String: Any])
        let pins = try #require(raw["pins"] as? [String: Any])
        #expect(style.base.water == (try Color(hex: #require(raw["water"] as? String))))
        #expect(style.heat.epochSeconds == heat["epochSeconds"] as? Int)
        #expect(style.pins.ring == (try Color(hex: #require(pins["ring"] as? String))))
        #expect(style.card.metrics.padding == ((raw["card"] as? [String: Any])?["metrics"] as? [String: Any])?["padding"] as? Double)
    }

    @Test(arguments: [
        ("water", "\"blue\"", "water"), ("streets.casingColor", "\"#12\"", "streets.casingColor"),
        ("labels.minClass", "\"alley\"", "labels.minClass"), ("heat.ramp.1.color", "\"#GG0000\"", "heat.ramp[1].color"),
        ("heat.opacity", "2.5", "heat.opacity"), ("heat.radius", "\"wide\"", "heat.radius"), ("pins.ring", "7", "pins.ring"),
        ("pins.layout.gridCell", "1000", "pins.layout.gridCell"), ("pins.avatar", "\"hat\"", "pins.avatar"),
        ("card.metrics.padding", "-1", "card.metrics.padding"), ("card.sheet", "\"white\"", "card.sheet"),
    ])
    func aBadValueInAnySectionIsOneErrorNamingTheFileAndTheField(path: String, value: String, field: String) throws {
        let file = EngineFixture.temporaryURL("style.json")
        try Self.styleText(setting: path, to: value).write(to: file, atomically: true, encoding: .utf8)
        #expect { try EngineStyle(contentsOf: file) } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.file == file.lastPathComponent && error.path == field && !error.message.isEmpty
        }
    }
}
