import Foundation
import GeoCore
import LiveMap
import Testing

@Suite("One rule for text a person writes")
struct PersonTextTests {
    /// Strings an attacker writes to reorder, hide or split what others read, each with the code point the error names.
    static let hostile: [(text: String, names: String)] = [
        ("Sam\u{202E}gnp.exe", "U+202E"), ("A\u{2066}B\u{2069}", "U+2066"), ("ALM\u{061C}x", "U+061C"), ("RLM\u{200F}", "U+200F"),
        ("Line\u{2028}Two", "U+2028"), ("Para\u{2029}Two", "U+2029"), ("Next\u{0085}Line", "U+0085"), ("CSI\u{009B}31m", "U+009B"),
        ("Esc\u{1B}[31m", "U+001B"), ("Tab\tName", "U+0009"), ("Nul\u{0}x", "U+0000"), ("Del\u{7F}", "U+007F"),
        ("Zero\u{200B}Width", "U+200B"), ("Bom\u{FEFF}", "U+FEFF"), ("Tag\u{E0041}", "U+E0041"), ("Non\u{FFFE}char", "U+FFFE"),
    ]

    /// What the rule allows, and the NFC form it keeps.
    static let allowed: [(text: String, kept: String)] = [
        ("Zoe\u{0308}", "Zo\u{00EB}"), ("Jordan Lee", "Jordan Lee"), ("\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}"),
        ("\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}", "\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}"),
        ("<3 Sam", "<3 Sam"), ("<b>Bold</b> & co", "<b>Bold</b> & co"), ("Marsha P. Johnson State Park", "Marsha P. Johnson State Park"),
    ]

    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func fix(place: String?) throws(LiveMapError) -> LocationFix {
        try LocationFix(lat: 40.71, lon: -73.95, accuracyMeters: 8, takenAt: t0, place: place)
    }

    static func error(_ body: () throws -> Void) -> LiveMapError? {
        do { try body() } catch { return error as? LiveMapError }
        return nil
    }

    @Test func theSameHostileStringsAreRefusedAsANameAndAsAPlaceNamingTheFieldAndTheCharacter() {
        for (text, code) in Self.hostile {
            let name = Self.error { _ = try Person(id: PersonID("mallory"), name: text, color: "#112233") }
            let place = Self.error { _ = try Self.fix(place: text) }
            #expect(name?.field == "name" && name?.description.contains(code) == true, "\(text.debugDescription): \(String(describing: name))")
            #expect(place?.field == "place" && place?.description.contains(code) == true, "\(text.debugDescription): \(String(describing: place))")
            #expect(name?.description.dropFirst(4) == place?.description.dropFirst(5), "one rule, one message: \(text.debugDescription)")
        }
    }

    @Test func lengthsAndBlanksAreOneRuleForBothFields() {
        let zalgo = String(repeating: "e\u{0301}\u{0302}\u{0303}\u{0304}", count: 40)
        let drawsNothing = ["\u{200D}", "\u{200C}\u{200D}", "\u{3164}", "\u{115F}", "\u{FFA0}", "\u{2800}", "\u{0301}\u{0302}", " \u{034F} "]
        for text in [String(repeating: "x", count: 65), zalgo, "   ", "\u{3000}"] + drawsNothing {
            let name = Self.error { _ = try Person(id: PersonID("mallory"), name: text, color: "#112233") }
            let place = Self.error { _ = try Self.fix(place: text) }
            #expect(name?.field == "name" && place?.field == "place", "\(text.debugDescription)")
            #expect(name?.description.dropFirst(4) == place?.description.dropFirst(5))
        }
        #expect(Self.error { _ = try Person(id: PersonID("mallory"), name: "", color: "#112233") }?.description.contains("1 to 64 characters") == true)
        #expect(zalgo.count == 40 && zalgo.utf8.count > PersonText.maxUTF8Bytes, "short in characters, long in bytes")
        #expect(throws: Never.self) { _ = try Person(id: PersonID("max"), name: String(repeating: "x", count: 64), color: "#112233") }
        for shown in ["👍", "Zoë", "李", "٣", "!"] {
            #expect(throws: Never.self) { _ = try Person(id: PersonID("shown"), name: shown, color: "#112233") }
        }
    }

    @Test func whatTheRuleAllowsIsKeptInNFCInBothFields() throws {
        for (text, kept) in Self.allowed {
            let person = try Person(id: PersonID("someone"), name: text, color: "#112233")
            let fix = try Self.fix(place: text)
            #expect(Array(person.name.utf8) == Array(kept.utf8) && Array((fix.place ?? "").utf8) == Array(kept.utf8), "\(text.debugDescription)")
        }
        #expect(try Self.fix(place: "").place == nil, "an empty place is no place, on every store")
        #expect(try Self.fix(place: nil).place == nil)
    }
}
