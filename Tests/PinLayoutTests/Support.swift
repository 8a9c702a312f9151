import Foundation
import GeoCore
@testable import PinLayout

/// A stand-in measurer: 7 points per character at 13 pt, scaled with the size.
struct FixedWidthMeasurer: TextMeasuring {
    func advance(of text: String, fontSize: Double) -> Double { Double(text.count) * 7 * fontSize / 13 }
}
enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let insets = EdgeInsets(top: 59, left: 0, bottom: 83, right: 0)
    static let engine = PinLayoutEngine(style: PinStyle(), measurer: FixedWidthMeasurer())

    static func subject(_ id: String, _ lat: Double, _ lon: Double, streak: Int = 0, best: Bool = false, minutes: Double = 5) -> PinSubject {
        PinSubject(id: id, name: id.capitalized + " Test", coordinate: try! Coordinate(lat: lat, lon: lon),
                   lastSeen: now.addingTimeInterval(-minutes * 60), snapstreak: streak, bestFriend: best)
    }

    /// Friends scattered over Williamsburg, a few of them in tight pairs.
    static func crowd(count: Int, seed: UInt64) -> [PinSubject] {
        var random = SplitMix64(seed: seed)
        var subjects: [PinSubject] = []
        for index in 0..<count {
            let lat = Double.random(in: 40.700...40.728, using: &random)
            let lon = Double.random(in: -73.972 ... -73.930, using: &random)
            subjects.append(subject("f\(index)", lat, lon, streak: Int.random(in: 0...300, using: &random),
                                    best: Bool.random(using: &random), minutes: Double.random(in: 0...5000, using: &random)))
            if index % 7 == 0 { subjects.append(subject("p\(index)", lat + 0.0002, lon + 0.0002, minutes: 3)) }
        }
        return subjects
    }

    static func viewport(_ lat: Double, _ lon: Double, zoom: Double, insets: EdgeInsets = Fixture.insets) -> Viewport {
        try! Viewport(center: Coordinate(lat: lat, lon: lon), zoom: zoom, size: ScreenSize(width: 393, height: 852), scale: 3, insets: insets)
    }
}
