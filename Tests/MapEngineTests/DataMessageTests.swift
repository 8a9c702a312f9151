import Foundation
import GeoCore
import HeatMap
import Testing
@testable import MapEngine

/// Errors in data files name the file, the field path and what is wrong, in the words of the data.
@Suite("Messages about bad data")
struct DataMessageTests {
    private func write(_ text: String) throws -> URL {
        let url = EngineFixture.temporaryURL("data.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func aHugeNumberATopLevelArrayAndABadHeatStyleReadAsTheDataDoes() throws {
        struct Streak: Decodable { let snapstreak: Int }
        let text = Data("{\"snapstreak\": 9223372036854775808}".utf8)
        let huge = DecodingFailure(DecodingErrorProbe.error { try JSONDecoder().decode(Streak.self, from: text) }, data: text)
        #expect(huge.message.contains("too large"), "\(huge)")
        let broken = Data("{\"snapstreak\": ".utf8)
        #expect(DecodingFailure(DecodingErrorProbe.error { try JSONDecoder().decode(Streak.self, from: broken) }, data: broken).message.hasPrefix("malformed JSON"))
        #expect(!huge.message.contains("DecodingError"))
        let array = DecodingFailure(DecodingErrorProbe.error { try JSONDecoder().decode([String: Int].self, from: Data("[]".utf8)) })
        #expect(array.message == "expected an object" && !array.description.contains("Dictionary<"))
        let style = try write(StyleFileTests.styleText(setting: "heat.radius", to: "\"wide\""))
        #expect { try EngineStyle(contentsOf: style) } throws: { "\($0)".contains("heat.radius") && "\($0)".contains("expected a number") && !"\($0)".contains("DecodingError") }
    }
}

enum DecodingErrorProbe {
    static func error(_ body: () throws -> Any) -> any Error {
        do {
            _ = try body()
            return CocoaError(.coderInvalidValue)
        } catch {
            return error
        }
    }
}
