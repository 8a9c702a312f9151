import Foundation
import MapEngine
import MapScene
import Testing

/// ETags cover the style: a server started on a copy of the data with one thing in its style files changed (the
/// land's colour, the glow's opacity, the pins' shadow, the card's sheet, the tracking map's water, or only the file's
/// layout) answers every probe beside the original server; each answer's tag differs from the original's exactly when
/// its bytes do, and revalidating with the original's tag is 304 exactly when they are the same (`ETagWorld.holds`).
/// A tag covers the style's sections an answer reads (`StyleSections`), not each value in them, so each change is
/// one that every drawn reader of its section shows (every pin draws its shadow; the selected one has no plain ring).
@Suite("ETags cover every input: the style")
struct ETagStyleTests {
    static let original = Result { try ETagWorld() }
    /// The original server's answers, asked once for every case.
    static let originalAnswers = Task { try await original.get().seen(probes) }
    static let route = Probe(name: "route", path: "/v1/route/frame.png", query: ["route": "lucias", "scale": "1", "size": "240x320"])
    /// Every probe but the tiles at scale 2 (the style reaches both scales alike; `ETagParameterTests` asks both).
    static let probes = ETagProbes.all.filter { !$0.name.hasSuffix("2x") } + [route]

    /// Each change: the file, the text replaced and its replacement.
    static let changes: [String: (file: String, text: String, with: String)] = [
        "land": ("snapmap.json", "\"land\": \"#F2EFE6\"", "\"land\": \"#F2EFE4\""),
        "heat": ("snapmap.json", "\"opacity\": 0.8", "\"opacity\": 0.7"),
        "pins": ("snapmap.json", "\"shadow\": \"#00000059\"", "\"shadow\": \"#0000005C\""),
        "card": ("snapmap.json", "\"sheet\": \"#FFFFFF\"", "\"sheet\": \"#F4F4F4\""),
        "tracking": ("tracking.json", "\"water\": \"#C9DDE8\"", "\"water\": \"#C6DAE6\""),
        "layout": ("snapmap.json", "\"name\": \"snapmap\",", "\"name\"  :\n    \"snapmap\" ,"),
    ]

    /// A copy of the data directory (the base map's cache with it) with one change made to a style file.
    static func data(_ change: (file: String, text: String, with: String)) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-etag-style-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: InProcessMap.dataDirectory, to: copy)
        let file = copy.appendingPathComponent("styles/" + change.file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.components(separatedBy: change.text).count == 2, "\(change.text) is once in \(change.file)")
        try text.replacingOccurrences(of: change.text, with: change.with).write(to: file, atomically: true, encoding: .utf8)
        return copy
    }

    @Test(arguments: ["land", "heat", "pins", "card", "tracking", "layout"])
    func style(change: String) async throws {
        let (original, answers) = (try Self.original.get(), try await Self.originalAnswers.value)
        let directory = try Self.data(try #require(Self.changes[change]))
        defer { try? FileManager.default.removeItem(at: directory) }
        let restyled = try ETagWorld(dataDirectory: directory, baseMapSources: original.engine.paths.baseMapSourceDirectory)
        var changed: Set<String> = []
        for probe in Self.probes {
            let old = try #require(answers[probe.name])
            let differs = await ETagWorld.holds("\(change): \(probe)", old: old) { await restyled.ask(probe, ifNoneMatch: $0) }
            if differs { changed.insert(probe.name) }
        }
        let all = Set(Self.probes.map(\.name))
        let (glow, pinned) = (["heatMcCarren", "heatDomino", "glowMcCarren", "glowDomino"],
                              ["frame", "pinsOnly", "selected", "selectedFrame", "frameMcCarren", "frameLeo"])
        let expected: (change: [String], free: [String]) = switch change {
        case "land": (["tile", "frame", "frameMcCarren", "glowMcCarren", "frameLeo", "glowDomino", "selected", "selectedFrame", "style"], [])
        case "heat": (glow, ["frame", "selected", "selectedFrame", "frameMcCarren", "frameLeo", "style"])
        case "pins": (pinned, ["style"])
        case "card": (["selectedFrame"], [])
        case "tracking": (["route"], [])
        default: ([], [])
        }
        #expect(changed.isSuperset(of: expected.change), "\(change) should change \(Set(expected.change).subtracting(changed).sorted())")
        let kept = all.subtracting(expected.change).subtracting(expected.free)
        #expect(changed.isDisjoint(with: kept), "\(change) should keep \(changed.intersection(kept).sorted())")
    }
}
