import BaseMap
import Foundation
import GeoCore
import MapEngine
import ServerTestSupport
import Testing

/// "You have explored N% of <Neighbourhood>" against shapely (GEOS): the neighbourhood's rings read even-odd, its
/// streets clipped to it, and the union of the places' 50 m discs (circles of 256 segments), lengths compared.
struct ExploredTests {
    static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/python/bin/python")

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: python.path), "make setup installs shapely into .build/python"))
    func theExploredShareOfWilliamsburgIsShapelys() throws {
        let engine = try EngineFixture.engine.get()
        let neighbourhoods = try Neighbourhoods.load(sourceDirectory: engine.paths.baseMapSourceDirectory)
        let index = try #require(neighbourhoods.areas.firstIndex { $0.name == "Williamsburg" })
        let area = neighbourhoods.areas[index]
        var random = SplitMix64(seed: 38)
        let (width, height) = (area.bounds.maxX - area.bounds.minX, area.bounds.maxY - area.bounds.minY)
        // Places across the neighbourhood's bounds and a little past them (into its neighbours).
        let places = (0..<80).map { _ in
            MercatorPoint(x: area.bounds.minX + (random.unit() * 1.2 - 0.1) * width, y: area.bounds.minY + (random.unit() * 1.2 - 0.1) * height)
        }
        let explored = try engine.explored(places: places)
        let williamsburg = try #require(explored.first { $0.neighbourhood == "Williamsburg" })
        #expect(explored.count > 1, "places past the edge explore a neighbour too")
        #expect(explored.map(\.share) == explored.map(\.share).sorted(by: >), "most explored first")
        #expect(williamsburg.text == "You have explored \(Int((williamsburg.share * 100).rounded(.down)))% of Williamsburg")
        let segments = neighbourhoods.streets(of: engine.baseMap.store, in: index).map { [[$0.from.x, $0.from.y], [$0.to.x, $0.to.y]] }
        let input: [String: Any] = [
            "rings": area.rings.map { $0.map { [$0.x, $0.y] } }, "segments": segments,
            "discs": places.map { [$0.x, $0.y, MapEngine.visitedRadiusMeters * cosh($0.y / WebMercator.earthRadius)] },
        ]
        let script = """
            import json, sys
            from functools import reduce
            from shapely.geometry import MultiLineString, Point, Polygon
            from shapely.ops import unary_union
            d = json.load(sys.stdin)
            area = reduce(lambda a, b: a.symmetric_difference(b), [Polygon(r).buffer(0) for r in d["rings"]])
            streets = MultiLineString(d["segments"]).intersection(area)
            near = unary_union([Point(x, y).buffer(r, quad_segs=64) for x, y, r in d["discs"]])
            print(streets.intersection(near).length / streets.length, streets.length)
            """
        let run = try TestProcess.run(Self.python, ["-c", script], input: try JSONSerialization.data(withJSONObject: input))
        let numbers = run.output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let (reference, mercatorLength) = (try #require(numbers.first, "\(run.errorOutput)"), numbers.last ?? 0)
        #expect(reference > 0.1 && reference < 0.9, "the places explore part of it: \(reference)")
        // Cuts of 10 m counted by their middles move at most a few metres at each crossing of the edge.
        #expect(abs(williamsburg.share - reference) < 0.005, "ours \(williamsburg.share) against shapely's \(reference)")
        let scale = cosh((area.bounds.minY + area.bounds.maxY) / 2 / WebMercator.earthRadius)
        #expect(abs(williamsburg.streetMeters - mercatorLength / scale) < 0.005 * williamsburg.streetMeters,
                "street length \(williamsburg.streetMeters) m against shapely's \(mercatorLength / scale) m")
    }

    @Test func noPlacesExploreNothing() throws {
        #expect(try EngineFixture.engine.get().explored(places: []).isEmpty)
    }
}

/// What a history is read through: `exploredBounds`, against the whole history's answer.
struct ExploredBoundsTests {
    /// Places over the bounds and around them (a third of their size beyond each side): the answer from the places
    /// inside is the answer from them all, to the bit.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theAnswerFromThePlacesInsideTheBoundsIsTheWholeHistorys(seed: UInt64) throws {
        let engine = try EngineFixture.engine.get()
        let box = try engine.exploredBounds()
        var random = SplitMix64(seed: seed)
        let (height, width) = (box.north - box.south, box.east - box.west)
        let places = (0..<600).map { _ in
            (lat: Double.random(in: (box.south - height / 3)...(box.north + height / 3), using: &random),
             lon: Double.random(in: (box.west - width / 3)...(box.east + width / 3), using: &random))
        }
        let inside = places.filter { (box.south...box.north).contains($0.lat) && (box.west...box.east).contains($0.lon) }
        let project = { (places: [(lat: Double, lon: Double)]) in places.map { WebMercator.projectUnchecked(lat: $0.lat, lon: $0.lon) } }
        let whole = try engine.explored(places: project(places))
        #expect(try engine.explored(places: project(inside)) == whole)
        #expect(whole.count > 1 && inside.count < places.count, "\(whole.count) neighbourhoods explored, \(places.count - inside.count) places left out")
    }
}
