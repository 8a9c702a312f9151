import Foundation
import GeoCore
import Testing
@testable import BaseMap

@Suite("Base map store, cache and style")
struct StoreAndStyleTests {
    @Test func importHoldsEveryLayerAndTheCacheRoundTrips() throws {
        let store = try Fixtures.store.get()
        #expect(store.land.count == 5 && store.parks.count == 2058 && store.streets.count > 19_000)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-cache-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        try BaseMapCache.write(store, fingerprint: "test", to: url)
        let back = try #require(try BaseMapCache.read(from: url, fingerprint: "test"))
        #expect(back.land == store.land && back.parks == store.parks && back.streets == store.streets && back.places == store.places)
        #expect(try BaseMapCache.read(from: url, fingerprint: "other sources") == nil, "a stale cache is not used")
    }

    @Test func shorelineIsReprojectedIntoNewYork() throws {
        let land = try Fixtures.store.get().land
        let bounds = (0..<land.count).map(land.bounds(of:)).reduce(land.bounds(of: 0)) { $0.union($1) }
        let degrees = bounds.geoBounds
        #expect((-74.27 ... -74.24).contains(degrees.west) && (-73.71 ... -73.69).contains(degrees.east),
                "NYC runs from Staten Island's tip (−74.259) to eastern Queens (−73.700)")
        #expect((40.47...40.50).contains(degrees.south) && (40.90...40.93).contains(degrees.north), "and from 40.477 to 40.918")
    }

    @Test func missingSourceNamesTheFileAndWhereItIsExpected() {
        let error = #expect(throws: DataFileError.self) { try BaseMapImporter.checkSources(in: URL(fileURLWithPath: "/nonexistent/nyc")) }
        #expect(error?.file == "streets-brooklyn.geojson" && error?.message.contains("/nonexistent/nyc/streets-brooklyn.geojson") == true)
    }

    @Test func styleInterpolatesWidthsBetweenStops() throws {
        let style = try Fixtures.style()
        let primary = style.street(.primary).width
        #expect(primary.value(at: 13) == 2.0 && primary.value(at: 14) == 3.5 && primary.value(at: 5) == 0.8 && primary.value(at: 22) == 60)
        #expect(style.water == (try .init(hex: "#A9D5EF")))
    }

    @Test func invalidStylesAreClearErrors() throws {
        let badColor = #expect(throws: DataFileError.self) { try Fixtures.style { $0.replacingOccurrences(of: "\"#A9D5EF\"", with: "\"blue\"") } }
        #expect(badColor?.path == "water")
        let order = #expect(throws: DataFileError.self) { try Fixtures.style { $0.replacingOccurrences(of: "[[10, 0.8], [13, 2.0]", with: "[[13, 0.8], [10, 2.0]") } }
        #expect(order?.path == "streets.classes.primary.width[1]" && order?.message.contains("ascend") == true)
        let missing = #expect(throws: DataFileError.self) { try Fixtures.style { $0.replacingOccurrences(of: "\"water\": \"#A9D5EF\",", with: "") } }
        #expect(missing?.path == "water" && missing?.message.contains("missing") == true)
        let unknown = #expect(throws: DataFileError.self) { try Fixtures.style { $0.replacingOccurrences(of: "\"living_street\"", with: "\"motorway\"") } }
        #expect(unknown?.path.hasPrefix("streets.classes.") == true)
    }
}

@Suite("Land and water")
struct LandTests {
    /// Known places on either side of the shoreline; the test is the even-odd rule over the borough polygons.
    @Test(arguments: [
        (40.7207, -73.9515, true), (40.7173, -73.9570, true), (40.7142, -73.9679, true), (40.7580, -73.9855, true),
        (40.7142, -73.9720, false), (40.7050, -73.9780, false), (40.7350, -73.9660, false), (40.6000, -73.5000, false),
    ])
    func landIsInsideTheShoreline(lat: Double, lon: Double, land: Bool) throws {
        let store = try Fixtures.store.get()
        #expect(store.isLand(WebMercator.projectUnchecked(lat: lat, lon: lon)) == land)
    }
}
