import Foundation
import GeoCore
import Testing

/// The one ISO 8601 reader against Foundation's formatter (the reference for what a valid time means), and the
/// times its rules refuse that a lenient reader might take.
@Suite("ISO 8601 times")
struct ISO8601TimeTests {
    @Test func validTimesReadAsFoundationReadsThem() throws {
        var random = SystemRandomNumberGenerator()
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: Double.random(in: -2e9...4e9, using: &random).rounded(.down) + [0, 0.5, 0.125].randomElement(using: &random)!)
            let offset = Int.random(in: -12...14, using: &random) * 3600 + [0, 1800, 2700].randomElement(using: &random)!
            for formatter in [plain, fractional] {
                formatter.timeZone = TimeZone(secondsFromGMT: offset)
                let text = formatter.string(from: date)
                #expect(ISO8601Time.date(from: text) == formatter.date(from: text), "\(text)")
            }
        }
        #expect(ISO8601Time.date(from: "2024-02-29T12:00:00Z") != nil, "a leap day of a leap year")
        #expect(ISO8601Time.date(from: "2026-11-29T18:00:00+01:00") == ISO8601Time.date(from: "2026-11-29T17:00:00Z"))
    }

    @Test(arguments: ["2026-11-29T25:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T18:60:00Z", "2026-11-29T18:00:60Z", "2026-02-29T12:00:00Z",
                      "2026-04-31T12:00:00Z", "2026-13-01T12:00:00Z", "2026-00-10T12:00:00Z", "2026-11-00T12:00:00Z", "0000-01-01T00:00:00Z",
                      "2026-11-29t18:00:00Z", "2026-11-29T18:00:00z", "2026-11-29T18:00:00", "2026-11-29 18:00:00Z", " 2026-11-29T18:00:00Z",
                      "2026-11-29T18:00:00Z ", "2026-11-29T18:00:00+24:00", "2026-11-29T18:00:00+01:60", "2026-11-29T18:00:00+0100",
                      "2026-11-29T18:00:00.Z", "2026-11-29T18:00:00.1234567890Z", "2026-11-29T18:00Z", "+2026-11-29T18:00:00Z", "", "scene",
                      "2026-11-29T18:00:00ZZ", "٢٠٢٦-11-29T18:00:00Z"])
    func outOfRangeOrMalformedTimesAreRefused(text: String) {
        #expect(ISO8601Time.date(from: text) == nil)
    }
}
