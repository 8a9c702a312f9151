import Foundation
import GeoCore
import Raster
import Testing
@testable import BaseMap

/// Place names from the sources: where each goes, checked against the polygons it names and the shoreline.
@Suite("Place names")
struct PlaceTests {
    /// Even-odd over rings, written here independently of the importer.
    static func inside(_ point: MercatorPoint, _ rings: [[MercatorPoint]]) -> Bool {
        var inside = false
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) where (a.y > point.y) != (b.y > point.y) {
                if point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
            }
        }
        return inside
    }

    @Test func everyNeighbourhoodLabelLiesInsideItsPolygon() throws {
        let store = try Fixtures.store.get()
        var polygons: [String: [[MercatorPoint]]] = [:]
        for feature in try GeoJSONReader.read(Fixtures.sourceDirectory.appendingPathComponent(PlaceImporter.neighbourhoodsFile)) {
            guard case .polygons(let parts) = feature.geometry, let name = feature.properties["name"]?.stringValue.map(Self.plain) else { continue }
            polygons[name, default: []] += parts.flatMap { $0 }.map { ring in ring.map { WebMercator.projectUnchecked(lat: $0.y, lon: $0.x) } }
        }
        let table = store.places
        var checked = 0
        for index in 0..<table.count where table.classes[index] == PlaceKind.neighbourhood.rawValue {
            let rings = try #require(polygons[table.names[index]], "\(table.names[index]) is an NTA")
            let part = table.points(ofPart: table.parts(of: index).lowerBound)
            for point in [part.lowerBound] + Array(part.dropFirst(2)) {
                #expect(Self.inside(MercatorPoint(x: table.xs[point], y: table.ys[point]), rings), "\(table.names[index])'s label point \(point - part.lowerBound)")
                checked += 1
            }
        }
        #expect(checked > 400, "every residential NTA has a label point and alternatives")
        #expect(["Williamsburg", "Greenpoint", "East Williamsburg", "South Williamsburg"].allSatisfy { name in
            (0..<table.count).contains { table.names[$0] == name && table.classes[$0] == PlaceKind.neighbourhood.rawValue }
        })
    }

    /// A source name without what is in parentheses, written here with a regular expression (the importer walks
    /// the characters).
    static func plain(_ name: String) -> String {
        name.replacingOccurrences(of: #"\s*\([^)]*\)"#, with: "", options: .regularExpression)
    }

    /// Neighbourhoods are named as a New Yorker writes them: no "(West)" or "(North)", and one name where two
    /// areas of the tabulation share it ("Bedford-Stuyvesant (West)" and "(East)" are one "Bedford-Stuyvesant").
    @Test func neighbourhoodNamesHaveNoQualifiersAndShowOnce() throws {
        let table = try Fixtures.store.get().places
        let names = (0..<table.count).filter { table.classes[$0] == PlaceKind.neighbourhood.rawValue }.map { table.names[$0] }
        var expected = Set<String>()
        for feature in try GeoJSONReader.read(Fixtures.sourceDirectory.appendingPathComponent(PlaceImporter.neighbourhoodsFile))
        where feature.properties["nta_type"]?.stringValue == PlaceImporter.residentialType {
            if let name = feature.properties["name"]?.stringValue { expected.insert(Self.plain(name)) }
        }
        #expect(names.count == Set(names).count, "each name once")
        #expect(Set(names) == expected)
        #expect(names.allSatisfy { !$0.contains("(") && !$0.contains(")") && !$0.hasSuffix(" ") && !$0.contains("  ") })
        #expect(["Bedford-Stuyvesant", "Crown Heights", "Bushwick", "Sunset Park-Borough Park", "Astoria-Woodside"].allSatisfy(names.contains))
    }

    /// The named waters sit in the water, and the East River is written along its course (north-north-east).
    @Test func watersAreNamedInTheWaterAlongTheirAxis() throws {
        let store = try Fixtures.store.get()
        let table = store.places
        let waters = (0..<table.count).filter { table.classes[$0] == PlaceKind.water.rawValue }
        #expect(Set(waters.map { table.names[$0] }) == ["East River", "Newtown Creek", "Wallabout Bay"])
        for index in waters {
            let first = table.points(ofPart: table.parts(of: index).lowerBound).lowerBound
            #expect(!store.isLand(MercatorPoint(x: table.xs[first], y: table.ys[first])), "\(table.names[index]) is named on the water")
            #expect(table.values[index] > 100_000, "\(table.names[index]) has an area")
        }
        let river = try #require(waters.first { table.names[$0] == "East River" })
        let first = table.points(ofPart: table.parts(of: river).lowerBound).lowerBound
        let bearing = atan2(table.xs[first + 1] - table.xs[first], table.ys[first + 1] - table.ys[first]) * 180 / .pi
        #expect(abs(bearing) < 45 || abs(abs(bearing) - 180) < 45, "the East River runs roughly north-south here, bearing \(bearing)")
    }

    /// McCarren Park is named from z14 (the issue's example) and a pocket park only much later.
    @Test func parksAreNamedByAreaAndZoom() throws {
        let renderer = try Fixtures.renderer()
        func names(_ zoom: Double) throws -> [String] {
            let frame = try Fixtures.view(40.7207, -73.9515, zoom: zoom, size: 393, scale: 1)
            return renderer.placeNames(for: frame).filter { $0.kind == .park }.map(\.name)
        }
        #expect(try !names(13).contains("McCarren Park") && names(14).contains("McCarren Park"))
    }

    /// At random frames over the city, the names shown never overlap one another or a pin's box, and lie
    /// inside the frame (never cut at its edge).
    @Test func placeNamesNeverOverlapAndStayInsideTheFrame() throws {
        let renderer = try Fixtures.renderer()
        var random = SplitMix64(seed: 13)
        var shown = 0
        for _ in 0..<150 {
            let frame = try Fixtures.view(Double.random(in: 40.66...40.76, using: &random), Double.random(in: -74.0 ... -73.90, using: &random),
                                          zoom: Double.random(in: 11...17, using: &random), size: 393, scale: 1)
            let pins = (0..<6).map { _ in Rect(x: Double.random(in: 0...340, using: &random), y: Double.random(in: 0...200, using: &random), width: 48, height: 48) }
            let boxes = renderer.shownPlaceNames(renderer.placeNames(for: frame), of: frame, avoiding: pins)
            shown += boxes.count
            let area = Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
            for (index, box) in boxes.enumerated() {
                #expect(area.contains(box), "\(box) is cut by the frame's edge")
                #expect(!pins.contains { $0.overlaps(box) }, "\(box) covers a pin")
                for other in boxes[(index + 1)...] { #expect(!box.overlaps(other), "\(box) overlaps \(other)") }
            }
        }
        #expect(shown > 150, "the frames did name places")
    }
}
