import Foundation
import GeoCore
import LiveMap
import Testing
@testable import MapEngine
@testable import MapScene
@testable import MapServer

@Suite("Compact JSON")
struct CompactJSONTests {
    struct Sample: Encodable {
        let text: String
        let numbers: [Double]
        let flag: Bool
        let count: Int
        let when: Date
        let nested: [String: [Int]]
        let missing: String?
        let present: String?
    }

    /// Foundation's encoder with the API's options: the reference for our bytes.
    static func reference<T: Encodable>(_ value: T) throws -> Any {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try JSONSerialization.jsonObject(with: encoder.encode(value))
    }

    @Test func makesTheSameDocumentAsFoundation() throws {
        let sample = Sample(text: "Jordan · 2m \"quoted\" \\ / \n\u{1}", numbers: [0, -1.5, 48, 40.714000000000006, 1e-7, 1e300],
                            flag: true, count: -3, when: Date(timeIntervalSince1970: 1_796_000_000), nested: ["b": [1, 2], "a": []],
                            missing: nil, present: "x")
        let ours = try CompactJSONEncoder.encode(sample)
        #expect(NSDictionary(dictionary: try JSONSerialization.jsonObject(with: Data(ours)) as! [String: Any])
                == NSDictionary(dictionary: try Self.reference(sample) as! [String: Any]))
        let text = String(decoding: ours, as: UTF8.self)
        #expect(text.hasPrefix("{\"count\":-3,\"flag\":true,\"nested\":{\"a\":[],\"b\":[1,2]},\"numbers\":[0,-1.5,48,"), "sorted keys, compact: \(text)")
        #expect(throws: CompactJSONEncoder.NotFinite.self) { try CompactJSONEncoder.encode([Double.nan]) }
    }

    @Test func aLayoutEncodesAsFoundationDoes() throws {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data")))
        let scene = engine.scene
        let layout = try engine.layout(scene.viewport, friends: scene.friends, selected: "jordan", now: scene.capturedAt)
        let ours = try JSONSerialization.jsonObject(with: Data(CompactJSONEncoder.encode(layout))) as! [String: Any]
        #expect(NSDictionary(dictionary: ours) == NSDictionary(dictionary: try Self.reference(layout) as! [String: Any]))
    }
}
