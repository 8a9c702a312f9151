import Foundation
import GeoCore
@testable import LiveMap
import RedisStore
import Testing

extension RedisStoreTests {
    /// A frame's places come from the geo set, not from the whole list (Redis counts the commands it ran), and the geo
    /// set holds what the list holds after kept places and the year's drop.
    @Test func aFramesFootstepsAreSearchedNotListed() throws {
        let local = try RedisClusterFixture.shared.get()
        try local.flush()
        let store = try RedisLiveStore(url: local.url, clock: { StoreConformance.t0 })
        let id = try PersonID("walker")
        _ = try store.addPerson(StoreConformance.person("walker"), settings: .newPerson)
        try store.setFootsteps(on: true, of: id)
        for index in 0..<80 { _ = try store.recordFix(StoreConformance.fix(40.70 + Double(index) / 2000, -73.95, at: Double(index * 700)), of: id) }
        _ = try store.recordFix(StoreConformance.fix(40.75, -73.95, at: Footsteps.keptFor + 20_000), of: id)
        let box = try GeoBoundingBox(west: -73.96, south: 40.70, east: -73.94, north: 40.76)
        var found: [Coordinate] = []
        let calls = try Self.commandCalls(local) { found = try store.footsteps(of: id, in: box) }
        let kept = try store.footsteps(of: id).map(\.coordinate)
        #expect(Set(found) == Set(kept) && found.count == kept.count && (2..<80).contains(kept.count), "\(found.count) found, \(kept.count) kept")
        #expect(calls["geosearch"] == 1 && calls["lrange"] == nil, "\(calls)")
    }
}
