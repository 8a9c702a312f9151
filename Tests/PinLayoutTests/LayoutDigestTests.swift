import Foundation
import GeoCore
import Testing
@testable import PinLayout

/// The layouts of 20,000 friends (many seen in the same minute, some standing on the same spot) at six viewports,
/// with and without a selection and with the anchors of the layout before, hash to a committed digest: work on the
/// layout's speed keeps its bytes. A change that means to lay out differently commits a new digest with it.
@Suite("Layout digest")
struct LayoutDigestTests {
    static let digest: UInt64 = 0x7c94_f252_08fc_fd57

    /// Friends over Williamsburg seen in whole minutes (ties broken by id), every fifth a best friend, every
    /// ninth on another's spot.
    static func friends(count: Int) -> [PinSubject] {
        var random = SplitMix64(seed: 44)
        var subjects: [PinSubject] = []
        for index in 0..<count {
            let (lat, lon) = index % 9 == 8
                ? (subjects[index / 2].coordinate.lat, subjects[index / 2].coordinate.lon)
                : (Double.random(in: 40.700...40.728, using: &random), Double.random(in: -73.972 ... -73.930, using: &random))
            subjects.append(PinSubject(id: "d\(count - index)", name: ["Jordan Ray", "Maya", " Théo Lu", "Priya K"][index % 4],
                                       coordinate: try! Coordinate(lat: lat, lon: lon),
                                       lastSeen: Fixture.now.addingTimeInterval(-60 * Double(Int.random(in: 0...600, using: &random))),
                                       snapstreak: Int.random(in: 0...50, using: &random), bestFriend: index % 5 == 0))
        }
        return subjects
    }

    @Test func layoutsOfManyFriendsKeepTheirBytes() throws {
        let subjects = Self.friends(count: 20_000)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var hasher = FNV1a()
        var previous: [String: LabelAnchor] = [:]
        for (zoom, selected) in [(11.0, nil), (13.1, nil), (14.5, "d77"), (15.0, nil), (17.2, "d4000"), (19.5, nil)] as [(Double, String?)] {
            let viewport = Fixture.viewport(40.7140, -73.9510, zoom: zoom)
            let layout = Fixture.engine.layout(subjects: subjects, viewport: viewport, selected: selected, now: Fixture.now, previousAnchors: previous)
            hasher.add(try encoder.encode(layout))
            previous = layout.anchors
        }
        #expect(hasher.value == Self.digest, "digest \(String(hasher.value, radix: 16))")
    }
}
