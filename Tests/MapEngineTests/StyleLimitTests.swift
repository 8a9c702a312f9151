import Foundation
import Testing
@testable import MapEngine
@testable import PinDrawing

@Suite("Style values that would trap")
struct StyleLimitTests {
    @Test func aStyleThatGroupsEverythingIsRefusedAtLoad() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/styles/snapmap.json")
        let text = try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "\"groupOverlap\": 0.25", with: "\"groupOverlap\": 1")
        #expect(text.contains("\"groupOverlap\": 1"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-style-\(UUID().uuidString).json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        #expect { try EngineStyle(contentsOf: file) } throws: { "\($0)".contains("pins.layout.groupOverlap") && "\($0)".contains("0.75") }
    }
}
