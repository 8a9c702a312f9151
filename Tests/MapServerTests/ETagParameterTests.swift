import Foundation
import Testing

/// ETags cover the request's own inputs: the viewport (centre, zoom, size, scale), the layers, the selection, the
/// tap, the card's height, the tile and its scale, the Accept-Encoding and the Host. For each, an answer and the same
/// request with one input changed: the second's tag differs exactly when its bytes do, and revalidating it with the
/// first's tag is 304 exactly when they are the same (`ETagWorld.holds`). Some changes spell the same request
/// differently (the layers' order, `at-selection=1`, another Accept-Encoding naming gzip) or change what the answer
/// does not read (the selected frame is framed on the friend wherever the viewport was): those must keep the bytes.
@Suite("ETags cover every input: the request")
struct ETagParameterTests {
    /// An answer, the input changed, and whether the bytes must change.
    struct Variant: Sendable, CustomStringConvertible {
        let probe: String
        let change: String
        let changes: Bool
        let variant: Probe

        init(_ probe: String, _ key: String, _ value: String, changes: Bool = true) {
            self.probe = probe
            change = "\(key)=\(value)"
            self.changes = changes
            variant = ETagProbes.named(probe).with(key, value)
        }

        init(_ probe: String, _ change: String, changes: Bool = true, _ make: (Probe) -> Probe) {
            self.probe = probe
            self.change = change
            self.changes = changes
            variant = make(ETagProbes.named(probe))
        }

        var description: String { "\(probe) with \(change)" }
    }

    static let variants = [
        Variant("glowMcCarren", "center", "40.7207,-73.9513"), Variant("glowMcCarren", "zoom", "16.5"), Variant("glowMcCarren", "size", "320x320"),
        Variant("glowMcCarren", "scale", "2"), Variant("glowMcCarren", "layers", "base"),
        Variant("glowMcCarren", "layers", "heat,base", changes: false),
        Variant("pinsOnly", "center", "40.7162,-73.9597"), Variant("pinsOnly", "size", "300x480"),
        Variant("frame", "zoom", "14.1"), Variant("frame", "zoom", "14.0", changes: false), Variant("frame", "scale", "2"),
        Variant("frame", "layers", "base,pins"), Variant("frame", "selected", "jordan"), Variant("frame", "selected", "maya"),
        Variant("selectedFrame", "selected", "maya"), Variant("selectedFrame", "at-selection", "1", changes: false),
        Variant("selectedFrame", "center", "40.7170,-73.9597", changes: false),
        Variant("layout", "zoom", "15"), Variant("layout", "selected", "jordan"), Variant("layoutSelected", "selected", "maya"),
        Variant("hit", "at", "150,225"), Variant("zoom", "card-height", "320"), Variant("zoom", "friend", "maya"),
        Variant("tile", "@2x") { Probe(name: $0.name, path: $0.path.replacingOccurrences(of: ".png", with: "@2x.png")) },
        Variant("tile", "the tile east") { Probe(name: $0.name, path: ETagParameterTests.east($0.path)) },
        Variant("heatMcCarren", "@2x") { Probe(name: $0.name, path: $0.path.replacingOccurrences(of: ".png", with: "@2x.png")) },
        Variant("mvt", "no Accept-Encoding") { Probe(name: $0.name, path: $0.path) },
        Variant("mvt", "Accept-Encoding: br, gzip", changes: false) { Probe(name: $0.name, path: $0.path, acceptEncoding: "br, gzip") },
        Variant("mvtPlain", "Accept-Encoding: identity", changes: false) { Probe(name: $0.name, path: $0.path, acceptEncoding: "identity") },
        Variant("tileJSON", "Host: localhost") { Probe(name: $0.name, path: $0.path, host: "localhost") },
        Variant("vectorJSON", "Host: localhost") { Probe(name: $0.name, path: $0.path, host: "localhost") },
        Variant("style", "Host: localhost") { Probe(name: $0.name, path: $0.path, host: "localhost") },
    ]

    /// A tile path with its x moved by `by`.
    static func east(_ path: String, by: Int = 1) -> String {
        var parts = path.split(separator: "/").map(String.init)
        parts[2] = String(Int(parts[2])! + by)
        return "/" + parts.joined(separator: "/")
    }

    static let world = Result { try ETagWorld() }

    @Test(arguments: variants)
    func changingOneInput(_ variant: Variant) async throws {
        let world = try Self.world.get()
        let old = Seen(await world.ask(ETagProbes.named(variant.probe)))
        #expect(old.status == 200, "\(variant.probe) answers \(old.status)")
        let changed = await ETagWorld.holds(variant.description, old: old) { await world.ask(variant.variant, ifNoneMatch: $0) }
        #expect(changed == variant.changes, "\(variant): the bytes \(changed ? "changed" : "stayed")")
    }
}
